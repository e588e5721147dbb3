"""旅 — the rules runtime of the second rule set: the tabletop draft 17 「明日、旅に出ます」
(spec 004), driven by generated/journey.py.

A game is a ``State`` (cheap to copy, with a hashable ``key()`` for memoisation) and two
pure functions: ``legal_actions(state)`` and ``apply(state, action) -> (state', events)``.
``new_game(rules, seed)`` deals it, the same for the same seed. docs/journey.md says how
each rule of the draft is read, and which of its contradictions the project decided how.
``Journey`` (journey/game.py) offers the same game through the interface the battle
offers too (contract.game.Game), with its actions as values (journey/actions.py).

The whole solitaire is this one package, in layers that import only downward
(tests/test_layers.py):

- the rules (rules, state, steps, effects, play, notation, actions, game; this module):
  standard library and contract/ only, like runtime/ — never lark, dsl/ or compiler/;
- the solver and the player above them (solve, search, player);
- on top, side by side, screen/ (``jibunki journey`` at a terminal) and lab/
  (``jibunki journey report``), the only parts that reach rich, prompt_toolkit, Jinja2,
  matplotlib, terminal/ or sim/.
"""

from contract.compiled import install as _install_compiled

_install_compiled()  # before any module that has a compiled twin (contract/compiled.py)

from .rules import JourneyError, Rules, load_rules
from .play import apply, legal_actions, new_game
from .state import State
from .game import Journey

__all__ = ["Journey", "JourneyError", "Rules", "State", "apply", "legal_actions", "load_rules",
           "new_game"]
