"""模擬 — playing many battles from the tables to learn what a page or an enemy does.

``simulate`` (sim/simulate.py) plays seeded battles under a policy (sim/policies.py) and
returns their outcomes; it stands above the runtime and reads nothing but its public API.
"""

from .policies import POLICIES, greedy_policy, random_policy
from .simulate import BattleResult, simulate

__all__ = ["BattleResult", "POLICIES", "greedy_policy", "random_policy", "simulate"]
