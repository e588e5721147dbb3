"""The greedy and the search players decide as they did when the golden digests were
written (tests/golden/policies/digests.json): a speed-up of their look-ahead must leave
every decision — so every battle, its events and its result — as it was.

Each case is a deck against stages over a range of seeds; its digest is the sha256 of the
JSON of the battles' ``BattleResult.to_dict()``. The decks cover the starting deck, the
pages that ask the player to choose and the pages of most 綻び (tears happen: shimekiri's
400 HP falls to 突破 alone). Rewrite the file only for a change meant to change the
players' decisions: ``PYTHONPATH=. python3 tests/test_policy_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.tables import load  # noqa: E402
from sim.policies import POLICIES  # noqa: E402
from sim.simulate import simulate  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "policies" / "digests.json"
#: The fields of a BattleResult the digests were recorded with: what the players' decisions
#: make (an observation added to the result later — when a page was first drawn — is not
#: a decision and leaves the digest as it was).
DECIDED = ("seed", "result", "turns", "actions", "hp_lost", "stages_cleared", "plays",
           "damage", "steps", "pens", "tears", "damage_total", "events", "won_by")
CHOOSING = ("mayoigo", "sotsugyou", "shuushoku", "circle", "nikki", "dansyari")
FRAYING = ("moetsuki", "soumatou", "mitori")
DECKS = {"starter": (), "choosing": CHOOSING, "fraying": FRAYING}
STAGES = {"kodoku": ["kodoku"], "wasure": ["wasure"], "haguruma": ["haguruma"],
          "shimekiri": ["shimekiri"], "three": ["kodoku", "wasure", "haguruma"]}
#: (policy, seeds): the search is far slower, so it plays fewer.
PLAYERS = {"greedy": range(30), "search": range(2)}
SEARCH_STAGES = ("kodoku", "shimekiri")


def cases():
    """Case name → (policy, deck additions, stages, seeds)."""
    found = {}
    for policy, seeds in PLAYERS.items():
        for deck, extra in DECKS.items():
            for stage, enemies in STAGES.items():
                if policy == "search" and stage not in SEARCH_STAGES:
                    continue
                found[f"{policy}/{deck}/{stage}"] = (policy, extra, enemies, seeds)
    return found


def digest(tables, policy, extra, enemies, seeds) -> str:
    results = simulate(tables, tables.starter() + list(extra), enemies, POLICIES[policy], seeds)
    text = json.dumps([{k: v for k, v in r.to_dict().items() if k in DECIDED} for r in results],
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture(scope="module")
def tables():
    return load()


@pytest.mark.parametrize("name", sorted(cases()))
def test_the_players_decide_as_the_golden_digests_say(tables, name):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert digest(tables, *cases()[name]) == golden[name]


if __name__ == "__main__":
    tables = load()
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps({name: digest(tables, *case) for name, case in sorted(cases().items())},
                                 indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
