"""Where a thing was written is not what it does (contract.tables ``placeless``): a
comment that moves the lines below it keeps every battle's cache key (sim/cache.py) and
every digest a save keeps of the content (runtime/save.py); a change to a rule — a 移動's
source region among them, a field that is also called ``source`` — changes both."""

from __future__ import annotations

import copy
import dataclasses
import typing

from compiler.build import compile_content
from conftest import ROOT
from contract import journey, tables, target
from contract.tables import PLACES, placeless
from runtime import save
from runtime.tables import from_dicts
from sim.cache import Keys

LITERAL = compile_content(ROOT / "content").tables
SERIES = (("sakamichi",), "greedy", 60, None, ("haguruma",), ("won",))


def _moved_down(literal: dict, lines: int = 1) -> dict:
    """The content as if ``lines`` comment lines were added at the top of every file."""
    moved = copy.deepcopy(literal)

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "line" and isinstance(item, int):
                    value[key] = item + lines
                elif key == "source" and isinstance(item, dict):
                    item["line"] += lines
                    item["end_line"] += lines
                    item["text"] = "# a comment\n" + item["text"]
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for name in ("pages", "enemies", "balance"):
        walk(moved[name])
    return moved


def _a_move_from_elsewhere(literal: dict) -> tuple[dict, str]:
    """The content with one 移動's source region changed, and the page it is on."""
    changed = copy.deepcopy(literal)
    for page_id, page in sorted(changed["pages"]["pages"].items()):
        for face in page["faces"].values():
            for effect in face["effects"]:
                if effect["op"] == "move" and effect["source"] == "discard":
                    effect["source"] = "draw"
                    return changed, page_id
    raise AssertionError("no 移動 from the discard in the bundled content")


def test_the_places_are_the_fields_that_say_where_a_thing_was_written():
    """Every field called ``source`` or ``line`` of the contract's classes: the ones that
    are places have PLACES' literal type, the one that is a rule's (a 作用's source region)
    does not — so ``placeless`` keeps it."""
    found = {}
    for module in (tables, journey, target):
        for cls in vars(module).values():
            if dataclasses.is_dataclass(cls) and isinstance(cls, type):
                hints = typing.get_type_hints(cls, include_extras=True)
                for field in dataclasses.fields(cls):
                    if field.name in PLACES:
                        found[f"{cls.__name__}.{field.name}"] = hints[field.name]
    assert set(found) == {"Sayou.line", "Sayou.source", "Source.line", "Page.source",
                          "Enemy.source"}
    assert found["Page.source"] is tables.Source and found["Enemy.source"] is tables.Source
    literal = LITERAL["pages"]["pages"]["zangyou"]
    assert "source" not in placeless(literal) and literal["source"]
    effect = LITERAL["pages"]["pages"]["zangyou"]["faces"]["future"]["effects"][0]
    assert "line" not in placeless(effect) and "source" in placeless(effect)


def test_a_comment_that_moves_the_lines_replays_no_battle():
    moved = _moved_down(LITERAL, 3)
    assert moved != LITERAL
    key = Keys(LITERAL).series(*SERIES)
    assert Keys(moved).series(*SERIES) == key
    everything = Keys(LITERAL).reach(("sakamichi",), ("haguruma",))
    assert Keys(moved).reach(("sakamichi",), ("haguruma",)) == everything


def test_a_moves_source_region_is_a_rule_the_cache_key_follows():
    changed, page = _a_move_from_elsewhere(LITERAL)
    keys = Keys(LITERAL)
    if page in keys.reach(*SERIES[0:1], SERIES[4]):
        assert Keys(changed).series(*SERIES) != keys.series(*SERIES)
    focus = ((*SERIES[0], page), *SERIES[1:])
    assert Keys(changed).series(*focus) != keys.series(*focus)


def test_a_save_says_a_page_changed_when_its_move_takes_from_elsewhere_not_when_it_moved():
    before = save.content_digests(from_dicts(LITERAL))
    assert save.content_digests(from_dicts(_moved_down(LITERAL, 2))) == before
    changed, page = _a_move_from_elsewhere(LITERAL)
    after = save.content_digests(from_dicts(changed))
    assert after["pages"][page] != before["pages"][page]
    assert {p for p in after["pages"] if after["pages"][p] != before["pages"][p]} == {page}
