"""模擬 — playing many battles from the tables to learn what a page or an enemy does.

``simulate`` (sim/simulate.py) plays seeded battles under a policy (sim/policies.py) and
returns their outcomes; it stands above the runtime and reads nothing but its public API.
The balance lab (sim/lab.py, ``jibunki sim``) plays paired seeds through it in rounds,
on the local cores or a Ray cluster (sim/backends.py), and reports intervals and verdicts
(sim/stats.py) in the terminal (sim/report_text.py), as JSON or as a page with plots.
The editor has one page measured (sim/one_page.py) — and the journey's lab one set-up —
in a process of its own (sim/oneshot.py).
"""

from contract.compiled import install as _install_compiled

_install_compiled()  # before any module that has a compiled twin (contract/compiled.py)

from .policies import POLICIES, greedy_policy, random_policy
from .simulate import BattleResult, simulate

__all__ = ["BattleResult", "POLICIES", "greedy_policy", "random_policy", "simulate"]
