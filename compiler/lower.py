"""下ろし — the checked model → the runtime tables (plain literals, all terms explicit).

Every 作用 comes out with the same keys, defaults filled in, stable ASCII codes, and the
Japanese display names beside them (``ja``) for the catalog. Conditions, references and
repeat ranges are data too. Nothing here can fail on valid content; the output is then
validated against ``schemas/`` before anything is written.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.codec import from_literal, to_literal
from contract.tables import SCHEMA_VERSION, TABLES, vocabulary_table

#: The keys every lowered 作用 has, in this order (contract.tables.Sayou).
SAYOU_KEYS = ("op", "direction", "landing", "target", "base", "lifetime", "timing", "repeat",
              "telegraphed", "source", "dest", "count", "pick", "filter", "line", "names")
REPEAT_KEYS = ("scope", "unit", "n", "max")
SIDES = ("future", "past")


def _name(table: str, code: str | None) -> str | None:
    if code is None:
        return None
    entry = vocab.tables()[table].by_code(code)
    return entry.mei if entry is not None else code


def _target_name(target: dict) -> str:
    code = target["code"]
    if code == "flag":
        return f"@{target['flag']}"
    if code == "pages":
        return "ページ"
    name = _name("variable", code)
    return f"{name}[{target['page']}]" if "page" in target else name


def _repeat(repeat: dict) -> dict:
    return {key: repeat.get(key) for key in REPEAT_KEYS}


def _repeat_name(repeat: dict) -> str:
    if repeat["scope"] == "anchored":
        text = f"以降 {repeat['n']} {_name('anchor_unit', repeat['unit'])}"
    else:
        text = _name("scope", repeat["scope"])
    return text if repeat["max"] is None else f"{text} 最大 {repeat['max']} 回"


def _ref(ref: dict) -> dict:
    """References keep their kind-specific keys; scopes always carry unit and n."""
    if ref["kind"] == "counter":
        return {"kind": "counter", "counter": ref["counter"], "scope": ref["scope"],
                "unit": ref.get("unit"), "n": ref.get("n")}
    return dict(ref)


def _base(base: dict | None) -> dict | None:
    if base is None:
        return None
    if base["kind"] == "const":
        return {"kind": "const", "value": base["value"]}
    return {"kind": "ref", "ref": _ref(base["ref"]), "coef": base["coef"]}


def lower_sayou(effect: dict) -> dict:
    out = {key: effect.get(key) for key in SAYOU_KEYS}
    out["repeat"] = _repeat(effect["repeat"])
    out["base"] = _base(effect.get("base"))
    out["telegraphed"] = bool(effect.get("telegraphed"))
    out["filter"] = dict(effect["filter"]) if effect.get("filter") is not None else None
    out["names"] = {"target": _target_name(effect["target"]),
                    "repeat": _repeat_name(out["repeat"])}
    return out


def lower_condition(cond: dict) -> dict:
    terms = cond.get("terms")
    if cond["test"] == "nonzero":
        terms = [cond["quantity"]]
    return {"kind": cond["kind"], "test": cond["test"],
            "terms": [_term(t) for t in terms or []], "ops": list(cond.get("ops", []))}


def _term(term: dict) -> dict:
    term = {k: v for k, v in term.items() if k != "cond_kind"}
    return term if term["kind"] == "const" else _ref(term)


def _body(body: dict | None) -> dict | None:
    if body is None:
        return None
    return {"conditions": [lower_condition(c) for c in body["conditions"]],
            "effects": [lower_sayou(e) for e in body["effects"]]}


def _face(face: dict) -> dict:
    if not face["written"]:
        return {"written": False, "conditions": [], "effects": []}
    return {"written": True, **_body(face)}


def lower_page(page: dict, balance: dict, source: dict) -> dict:
    return {
        "id": page["id"],
        "name": page["name"],
        "mei": page["mei"],
        "hokorobi_mul": float(page["hokorobi_mul"]),
        "origin": page["origin"],
        "after_play": page["after_play"],
        "deck_cap": page["deck_cap"] if page["deck_cap"] is not None
        else balance["deck_cap_default"],
        "appears": [lower_condition(c) for c in page["appears"]],
        "flavor": page["flavor"],
        "faces": {side: _face(page["faces"][side]) for side in SIDES},
        "pens": {side: _body(page["pens"].get(side)) for side in SIDES},
        "tear": [lower_sayou(e) for e in page["tear"]["effects"]] if page["tear"] else None,
        "source": source,
    }


def lower_enemy(enemy: dict, source: dict) -> dict:
    def intent(i: dict) -> dict:
        return {"kind": i["kind"], "amount": i.get("amount"), "region": i.get("region")}

    return {
        "id": enemy["id"],
        "name": enemy["name"],
        "hp": enemy["hp"],
        "za": enemy["za"],
        "breakthrough": enemy["breakthrough"],
        "intents": [intent(i) for i in enemy["intents"]],
        "escalations": [{"every": e["every"], "intent": intent(e["intent"])}
                        for e in enemy["escalations"]],
        "traits": [{"trait": t["trait"], "value": t.get("value"), "low": t.get("low"),
                    "high": t.get("high")} for t in enemy["traits"]],
        "trait_effects": [lower_sayou(e) for e in enemy["trait_effects"]],
        "flavor": enemy["flavor"],
        "source": source,
    }


def lower_balance(balance: dict) -> dict:
    values = {k: v for k, v in balance.items() if k != "reward"}
    return {**values, "reward": [lower_sayou(e) for e in balance["reward"]]}


def lower(model: dict, sources: dict[str, dict]) -> dict[str, dict]:
    """All tables, keyed by table name; ``sources`` maps item keys to source records."""
    balance = model["balance"]
    pages = {p["id"]: lower_page(p, balance, sources[("page", p["id"])])
             for p in sorted(model["pages"], key=lambda p: p["id"])}
    enemies = {e["id"]: lower_enemy(e, sources[("enemy", e["id"])])
               for e in sorted(model["enemies"], key=lambda e: e["id"])}
    decks = {d["id"]: {"id": d["id"], "name": d["name"], "pages": list(d["pages"])}
             for d in sorted(model["decks"], key=lambda d: d["id"])}
    literals = {
        "pages": {"schema_version": SCHEMA_VERSION, "pages": pages},
        "enemies": {"schema_version": SCHEMA_VERSION, "enemies": enemies},
        "balance": {"schema_version": SCHEMA_VERSION, "balance": lower_balance(balance)},
        "decks": {"schema_version": SCHEMA_VERSION, "starting_deck": STARTING_DECK,
                  "decks": decks},
        "vocabulary": to_literal(vocabulary_table()),
    }
    # Through the contract classes and back: a table the contract does not describe
    # raises ContractError here (a bug in jibunki), before anything is written.
    return {name: to_literal(from_literal(TABLES[name], table, name))
            for name, table in literals.items()}


#: The deck a run starts with (DESIGN §6: defined in content, 10 pages).
STARTING_DECK = "starter"
