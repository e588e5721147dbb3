"""セーブ — the whole run as JSON, and back (DESIGN §5).

The state is plain data already; the RNG's state goes beside it, so a loaded run
continues exactly as the saved one would have. A pending player choice is not saved
(セーブ／開発者モード): saving in the middle of one is refused.
"""

from __future__ import annotations

import dataclasses
import json
import random

from .battle import Battle, Refused
from .state import State
from .tables import Tables

SAVE_VERSION = 1


def to_json(battle: Battle) -> str:
    if battle.choice is not None:
        raise Refused("選択の途中はセーブできません（選択待ちはセーブ対象外）")
    version, internal, gauss = battle.rng.getstate()
    data = {"save_version": SAVE_VERSION, "state": dataclasses.asdict(battle.state),
            "rng": [version, list(internal), gauss]}
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def from_json(tables: Tables, text: str) -> Battle:
    data = json.loads(text)
    if data.get("save_version") != SAVE_VERSION:
        raise ValueError(f"save_version {data.get('save_version')} は読めません")
    state = State(**data["state"])
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    return Battle(tables, state, rng)
