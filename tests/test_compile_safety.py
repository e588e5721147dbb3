"""Designer strings cannot escape the literal tables.

Display names and flavour texts are free text. Whatever a designer types — quotes,
backslashes, newlines, ``#``, triple quotes, Python that looks runnable, Unicode line
separators — the compiled module must stay one ``TABLE = <literal>`` assignment that reads
back (by ``ast.literal_eval`` and by import) to exactly the in-memory table, with every
string unchanged, and importing it must run nothing.

The only characters a ``"..."`` string of the language cannot hold are NUL (a binary file)
and a carriage return (read as a line break); both are left out here.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest

from hypothesis import HealthCheck, example, given, settings, strategies as st

from compiler.build import TABLES, compile_content, render_json, write_atomically
from conftest import bundled_balance
from contract.linebreak import UNSHOWABLE

# The characters no terminal shows as themselves (contract.linebreak.UNSHOWABLE: line
# separators, C0 and C1 controls) are refused by lint (tests/test_unshowable_text.py):
# designer text is everything else.
HOSTILE = [
    '"', "\\", "\n", "#", '"""', "'''", "'", "__import__('os').system('x')",
    "{}", "}", "{", "\t", ";", "「", "」", "\\n", "\\\\", '\\"', "${x}",
    "%s", "{0}", "\ufeff", "\u200b", "TABLE = 1", "\n#", ")", "(", " ",
    "ページ x {", "\U0001f4a5",
]
_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00").filter(
    lambda ch: not UNSHOWABLE.match(ch))
designer_text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(_CHARS, min_size=1,
                                                                      max_size=4)),
                         max_size=12).map("".join)

BALANCE = bundled_balance()
EVERYTHING = "".join(HOSTILE)


def dsl_string(text: str) -> str:
    """A ``"..."`` literal of the content language holding exactly ``text``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def write_content(folder: Path, strings: dict[str, str]) -> Path:
    content = folder / "content"
    content.mkdir()
    s = {key: dsl_string(value) for key, value in strings.items()}
    (content / "balance.balance").write_text(BALANCE, encoding="utf-8")
    (content / "starter.deck").write_text(
        f"デッキ starter {s['deck']} {{\n  hostile_a\n  hostile_b\n}}\n", encoding="utf-8")
    (content / "hostile.page").write_text(
        f"# {strings['comment'].split(chr(10))[0]}\n"
        f"ページ hostile_a {s['page_name']} {{\n"
        f"  銘 10\n"
        f"  フレーバー {s['page_flavor']}\n"
        f"  未来面 {{ 敵HP -= 3 }}; ペン 過去面 {{ 歩 += 5 }}\n"
        f"}}\n"
        f"ページ hostile_b {s['other_name']} {{ 銘 20; 過去面 {{ 防御 += 2 }}; ペン 未来面 {{ 歩 += 5 }} }}\n",
        encoding="utf-8")
    (content / "hostile.enemy").write_text(
        f"敵 hostile_e {s['enemy_name']} {{\n"
        f"  HP 10; 座 5; 突破ライン 8\n"
        f"  フレーバー {s['enemy_flavor']}\n"
        f"  予兆 [ 攻撃 1 ]\n"
        f"}}\n", encoding="utf-8")
    return content


def only_literal_assignment(text: str) -> ast.expr:
    tree = ast.parse(text)
    assert len(tree.body) == 1
    (stmt,) = tree.body
    assert isinstance(stmt, ast.Assign) and [t.id for t in stmt.targets] == ["TABLE"]
    for node in ast.walk(stmt.value):
        assert isinstance(node, (ast.Dict, ast.List, ast.Constant, ast.Load, ast.UnaryOp,
                                 ast.USub)), ast.dump(node)[:120]
        if isinstance(node, ast.UnaryOp):
            assert isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
    return stmt.value


def strict_equal(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(strict_equal, a, b))
    return a == b


KEYS = ("deck", "page_name", "page_flavor", "other_name", "enemy_name", "enemy_flavor",
        "comment")


@pytest.mark.slow  # a longer property search / lab run: the full suite's
@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({key: designer_text for key in KEYS}))
@example({key: EVERYTHING for key in KEYS})
@example({key: value for key, value in zip(KEYS, (
    '"""', "\\", "\n", "__import__('os').system('x')", "\t\ufeff", "}", "#"))})
def test_hostile_designer_strings_stay_inert_literals(strings):
    with tempfile.TemporaryDirectory() as tmp:
        content = write_content(Path(tmp), strings)
        compiled = compile_content(content)
        errors = [(d.code, d.message) for d in compiled.diagnostics if d.is_error]
        assert compiled.ok, errors

        pages = compiled.tables["pages"]["pages"]
        enemy = compiled.tables["enemies"]["enemies"]["hostile_e"]
        deck = compiled.tables["decks"]["decks"]["starter"]
        # An empty display name ("") means "no display name": the id is shown instead.
        assert pages["hostile_a"]["name"] == (strings["page_name"] or "hostile_a")
        assert pages["hostile_a"]["flavor"] == strings["page_flavor"]
        assert pages["hostile_b"]["name"] == (strings["other_name"] or "hostile_b")
        assert enemy["name"] == (strings["enemy_name"] or "hostile_e")
        assert enemy["flavor"] == strings["enemy_flavor"]
        assert deck["name"] == (strings["deck"] or "starter")
        page_lines = (content / "hostile.page").read_text(encoding="utf-8").split("\n")
        assert pages["hostile_b"]["source"]["text"] == page_lines[6]

        out = Path(tmp) / "generated"
        write_atomically(out, compiled.files)
        for name in TABLES:
            text = (out / f"{name}.py").read_text(encoding="utf-8")
            value = ast.literal_eval(only_literal_assignment(text))
            assert strict_equal(value, compiled.tables[name]), name
            assert strict_equal(json.loads(render_json(name, compiled.tables[name])),
                                compiled.tables[name]), name

            modules_before = set(sys.modules)
            spec = importlib.util.spec_from_file_location(f"_hostile_{name}", out / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            with mock.patch.object(os, "system") as system:
                spec.loader.exec_module(module)
            assert not system.called
            assert set(sys.modules) == modules_before
            # With no builtins at all, any call, import or name lookup would fail.
            namespace = {"__builtins__": {}}
            exec(compile(text, f"{name}.py", "exec"), namespace)
            assert set(namespace) == {"__builtins__", "TABLE"}
            assert {n for n in vars(module) if not n.startswith("__")} == {"TABLE"}
            assert strict_equal(module.TABLE, compiled.tables[name]), name
