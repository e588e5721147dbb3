"""The compile step: content → plain literal tables (generated/*.py, or JSON), validated
by schemas/, written atomically, and checked for freshness (`jibunki compile --check`).

Golden tables: each tests/golden/<case>/content/ compiles to exactly the files in
tests/golden/<case>/expected/ (compared byte for byte). After an intended change of the
output, rewrite them and review the diff before committing it:

    JIBUNKI_UPDATE_GOLDEN=1 python -m pytest tests/test_compile.py -k golden
    git diff tests/golden/
"""

from __future__ import annotations

import ast
import copy
import difflib
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from cli import main
from compiler import build, lower
from contract import vocabulary as vocab
from compiler.build import (TABLES, SchemaViolation, compile_content, schema, schema_errors,
                            stale_files, validate, write_atomically)
from conftest import ROOT

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "content").is_dir())
UPDATE_GOLDEN = os.environ.get("JIBUNKI_UPDATE_GOLDEN") == "1"
FILES = {f"{name}.py" for name in TABLES} | {"__init__.py"}


# ----------------------------------------------------------------------- helpers


def compile_ok(content: Path, fmt: str = "py") -> build.Compiled:
    compiled = compile_content(content, fmt)
    errors = [f"{d.span.path}:{d.span.line}: {d.code} {d.message}"
              for d in compiled.diagnostics if d.is_error]
    assert compiled.ok and not errors, errors
    return compiled


@pytest.fixture(scope="module")
def bundled() -> build.Compiled:
    return compile_ok(ROOT / "content")


def run_cli(*args: str):
    return CliRunner().invoke(main, list(args))


def copy_content(tmp_path: Path, source: Path = ROOT / "content") -> Path:
    content = tmp_path / "content"
    shutil.copytree(source, content)
    return content


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` (relative name → bytes, mtime)."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_identical(got, want, path: str = "TABLE") -> None:
    """Equal *and* of the same types all the way down (1 == 1.0 == True for ``==``)."""
    assert type(got) is type(want), f"{path}: {type(got).__name__} != {type(want).__name__}"
    if isinstance(want, dict):
        assert set(got) == set(want), f"{path}: keys {sorted(set(got) ^ set(want))}"
        for key in want:
            assert_identical(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert len(got) == len(want), f"{path}: length {len(got)} != {len(want)}"
        for index, (a, b) in enumerate(zip(got, want)):
            assert_identical(a, b, f"{path}.{index}")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


_LITERAL_NODES = (ast.Module, ast.Assign, ast.Dict, ast.List, ast.Constant, ast.Load,
                  ast.Store)


def table_literal(text: str) -> ast.expr:
    """The value of the module's one statement, ``TABLE = <literal>``; fails on anything else
    (calls, names, imports, attribute access, comprehensions, f-strings …)."""
    tree = ast.parse(text)
    assert len(tree.body) == 1, [ast.dump(node)[:80] for node in tree.body]
    (stmt,) = tree.body
    assert isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
    assert isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == "TABLE"
    names = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names += 1
            assert node is stmt.targets[0], f"a name in the table: {node.id}"
        elif isinstance(node, ast.UnaryOp):  # a negative number is -<constant>
            assert isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
            assert type(node.operand.value) in (int, float), ast.dump(node)
        elif isinstance(node, ast.USub):
            continue
        else:
            assert isinstance(node, _LITERAL_NODES), f"not a literal: {ast.dump(node)[:120]}"
        if isinstance(node, ast.Constant):
            assert node.value is None or type(node.value) in (str, int, float, bool), \
                repr(node.value)
    assert names == 1
    return stmt.value


def import_file(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def public_names(module) -> set[str]:
    return {n for n in vars(module) if not (n.startswith("__") and n.endswith("__"))}


def file_diff(got: bytes, want: bytes, name: str) -> str:
    lines = difflib.unified_diff(want.decode("utf-8").splitlines(), got.decode("utf-8")
                                 .splitlines(), f"expected/{name}", f"compiled/{name}",
                                 lineterm="", n=2)
    return "\n".join(list(lines)[:60])


# ------------------------------------------------------------------------ golden


def test_there_are_golden_cases():
    assert 2 <= len(CASES) <= 5, CASES
    for case in CASES:
        content = GOLDEN / case / "content"
        assert list(content.rglob("*.balance")) and list(content.rglob("*.deck")), case


@pytest.mark.parametrize("case", CASES)
def test_golden_tables(case, tmp_path):
    compiled = compile_ok(GOLDEN / case / "content")
    assert write_atomically(tmp_path, compiled.files) == list(compiled.files)
    expected_dir = GOLDEN / case / "expected"
    if UPDATE_GOLDEN:
        shutil.rmtree(expected_dir, ignore_errors=True)
        expected_dir.mkdir()
        for name in compiled.files:
            shutil.copyfile(tmp_path / name, expected_dir / name)
    # Files only: importing the expected tables elsewhere leaves a __pycache__ folder
    # beside them where Python writes bytecode.
    written = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    expected = {p.name: p.read_bytes() for p in expected_dir.iterdir() if p.is_file()}
    assert sorted(written) == sorted(expected) == sorted(FILES)
    for name in sorted(expected):
        assert written[name] == expected[name], (
            f"{case}/{name} differs from the golden file (if intended: "
            f"JIBUNKI_UPDATE_GOLDEN=1 python -m pytest tests/test_compile.py -k golden)\n"
            + file_diff(written[name], expected[name], name))


@pytest.mark.parametrize("case", CASES)
def test_source_records_quote_each_item_exactly(case):
    """The ``source`` of a page or enemy is its lines as the parser counts them ("\\n" only:
    a U+2028 or U+0085 inside a display name does not end a line)."""
    content = GOLDEN / case / "content"
    tables = compile_ok(content).tables
    items = [*tables["pages"]["pages"].values(), *tables["enemies"]["enemies"].values()]
    assert items
    for item in items:
        source = item["source"]
        assert source["path"].startswith("content/"), source["path"]
        lines = (content.parent / source["path"]).read_text(encoding="utf-8").split("\n")
        assert source["text"] == "\n".join(lines[source["line"] - 1: source["end_line"]])
        assert f" {item['id']} " in source["text"].split("\n")[0] + " "
        assert source["text"].endswith("}")


@pytest.mark.slow  # the whole content compiled twice
def test_a_content_saved_with_windows_line_ends_compiles_to_the_same_tables(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(ROOT / "content", copy)
    for path in copy.rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert compile_ok(copy).files == compile_ok(ROOT / "content").files


def test_hostile_strings_survive_compilation():
    tables = compile_ok(GOLDEN / "strings" / "content").tables
    pages = tables["pages"]["pages"]
    assert pages["quote"]["name"] == 'say "hi" \\ back\nslash \'single\' \'\'\'triple\'\'\' """'
    assert pages["quote"]["flavor"] == "# not a comment; {} } { \t tab"
    assert pages["inject"]["name"] == "__import__('os').system('x')"
    assert pages["lines"]["name"] == "line\nsep\tnel"
    assert pages["lines"]["flavor"] == "改行\nのあるフレーバー\\n（これはバックスラッシュと n）"
    assert pages["bare"]["name"] == "裸の名前"
    enemy = tables["enemies"]["enemies"]["ghost"]
    assert (enemy["name"], enemy["flavor"]) == ('幽霊 """ }', "\t\n\\")
    assert tables["decks"]["decks"]["starter"]["name"] == 'デッキ "引用" \\ と 「括弧」'


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("content", [ROOT / "content", *(GOLDEN / c / "content" for c in CASES)],
                         ids=["bundled", *CASES])
def test_compiling_twice_is_byte_identical(content):
    first, second = compile_ok(content), compile_ok(content)
    assert first.files == second.files
    assert list(first.files) == list(second.files)


@pytest.mark.slow  # a second or more (the fast loop's share, README)
@pytest.mark.parametrize("content", [ROOT / "content", GOLDEN / "effects" / "content"],
                         ids=["bundled", "effects"])
def test_hash_seed_does_not_change_the_output(content, tmp_path):
    outputs = []
    for seed in ("0", "12345"):
        out = tmp_path / f"seed{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "cli.py", "compile", "--content", str(content),
                               "--out", str(out)], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        outputs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert outputs[0] == outputs[1]
    here = {name: text.encode("utf-8") for name, text in compile_ok(content).files.items()}
    assert outputs[0] == here  # and this process has yet another (random) hash seed


# --------------------------------------------------------- the modules are literals


def _module_sources():
    yield "generated", ROOT / "generated", ROOT / "content"
    for case in CASES:
        yield case, GOLDEN / case / "expected", GOLDEN / case / "content"


@pytest.mark.parametrize("label, folder, content", list(_module_sources()),
                         ids=[s[0] for s in _module_sources()])
def test_every_module_is_one_literal_and_loads_both_ways(label, folder, content):
    tables = compile_ok(content).tables
    for name in TABLES:
        path = folder / f"{name}.py"
        text = path.read_text(encoding="utf-8")
        value = ast.literal_eval(table_literal(text))
        assert_identical(value, tables[name], f"{label}/{name}")
        module = import_file(path, f"_jibunki_test_{label}_{name}")
        assert public_names(module) == {"TABLE"}
        assert_identical(module.TABLE, tables[name], f"{label}/{name} (imported)")
    init = (folder / "__init__.py").read_text(encoding="utf-8")
    (stmt,) = ast.parse(init).body  # the manifest, one literal: file name → sha256
    assert isinstance(stmt, ast.Assign) and [t.id for t in stmt.targets] == ["MANIFEST"]
    assert sorted(ast.literal_eval(stmt.value)) == sorted(f"{name}.py" for name in TABLES)


def test_rendered_module_reads_back_for_every_table(bundled):
    for name in TABLES:
        text = build.render_module(name, bundled.tables[name])
        assert text == bundled.files[f"{name}.py"]
        assert_identical(ast.literal_eval(table_literal(text)), bundled.tables[name], name)


# ------------------------------------------------------------------------ schemas


def test_schemas_are_valid_draft_2020_12_and_cover_every_table():
    files = sorted(build.SCHEMA_DIR.glob("*.schema.json"))
    ids = []
    for path in files:
        loaded = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(loaded)
        ids.append(loaded["$id"])
    assert len(ids) == len(set(ids))
    assert {p.name.removesuffix(".schema.json") for p in files} == set(TABLES)


@pytest.mark.parametrize("name", TABLES)
def test_bundled_generated_tables_validate(name):
    text = (ROOT / "generated" / f"{name}.py").read_text(encoding="utf-8")
    assert schema_errors(name, ast.literal_eval(table_literal(text))) == []


@pytest.mark.parametrize("case", CASES)
def test_golden_tables_validate(case):
    tables = compile_ok(GOLDEN / case / "content").tables
    assert {name: schema_errors(name, tables[name]) for name in TABLES} == \
        {name: [] for name in TABLES}


def _first_effect(tables):
    return tables["pages"]["pages"]["tabidachi"]["faces"]["future"]["effects"][0]


def _set(path, value):
    def mutate(tables):
        *head, last = path
        node = tables
        for key in head:
            node = node[key]
        node[last] = value
    return mutate


def _delete(path):
    def mutate(tables):
        *head, last = path
        node = tables
        for key in head:
            node = node[key]
        del node[last]
    return mutate


EFFECT = ("pages", "pages", "tabidachi", "faces", "future", "effects", 0)
MUTATIONS = {
    "year as a string": (_set(("pages", "pages", "tabidachi", "year"), "36"), "pages",
                        ["pages.tabidachi.year", "is not of type 'integer'"]),
    "year out of range": (_set(("pages", "pages", "tabidachi", "year"), 201), "pages",
                         ["pages.tabidachi.year", "201"]),
    "missing timing": (_delete((*EFFECT, "timing")), "pages",
                       ["pages.tabidachi.faces.future.effects.0", "'timing' is a required"]),
    "unknown op": (_set((*EFFECT, "op"), "explode"), "pages",
                   ["pages.tabidachi.faces.future.effects.0.op", "'explode'"]),
    "unknown timing": (_set((*EFFECT, "timing"), "whenever"), "pages",
                       ["pages.tabidachi.faces.future.effects.0.timing", "'whenever'"]),
    "unknown counter": (_set((*EFFECT, "base", "ref", "counter"), "steps"), "pages",
                        ["pages.tabidachi.faces.future.effects.0.base"]),
    "extra page key": (_set(("pages", "pages", "tabidachi", "rarity"), 3), "pages",
                       ["pages.tabidachi", "'rarity'"]),
    "infinite base": (_set((*EFFECT, "base"), {"kind": "const", "value": math.inf}), "pages",
                      ["pages.tabidachi.faces.future.effects.0.base.value",
                       "not a finite number"]),
    "nan coefficient": (_set((*EFFECT, "base", "coef"), math.nan), "pages",
                        ["pages.tabidachi.faces.future.effects.0.base.coef", "finite"]),
    "tuple for a list": (_set(("pages", "pages", "tabidachi", "appears"), ()), "pages",
                         ["pages.tabidachi.appears", "tuple"]),
    "enemy without hp": (_delete(("enemies", "enemies", "haguruma", "hp")), "enemies",
                         ["enemies.haguruma", "'hp' is a required"]),
    "enemy intent region": (_set(("enemies", "enemies", "haguruma", "intents", 2, "region"),
                                 "pocket"), "enemies",
                            ["enemies.haguruma.intents.2.region", "'pocket'"]),
    "balance key missing": (_delete(("balance", "balance", "pen_cap")), "balance",
                            ["balance", "'pen_cap' is a required"]),
    "balance float for int": (_set(("balance", "balance", "hand_cap"), 8.5), "balance",
                              ["balance.hand_cap", "is not of type 'integer'"]),
    "empty deck": (_set(("decks", "decks", "starter", "pages"), []), "decks",
                   ["decks.starter.pages"]),
    "schema version": (_set(("decks", "schema_version"), 1), "decks",
                       ["decks: schema_version"]),
    "unknown timing in vocabulary": (
        _set(("vocabulary", "timings", "on_whim"), {"name": "気まぐれ", "family": "event"}),
        "vocabulary", ["vocabulary: timings", "'on_whim'"]),
    "vocabulary section missing": (_delete(("vocabulary", "regions")), "vocabulary",
                                   ["vocabulary: (top)", "'regions' is a required"]),
}


@pytest.mark.parametrize("label", list(MUTATIONS))
def test_mutated_table_fails_validation_with_a_readable_path(label, bundled):
    mutate, name, fragments = MUTATIONS[label]
    tables = copy.deepcopy(bundled.tables)
    assert schema_errors(name, tables[name]) == []
    mutate(tables)
    problems = schema_errors(name, tables[name])
    assert problems, label
    text = "\n".join(problems)
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in:\n{text}"
    assert all(p.startswith(f"{name}: ") for p in problems)
    with pytest.raises(SchemaViolation) as raised:
        validate(tables)
    assert fragments[0] in str(raised.value)


def test_a_schema_violation_stops_the_compile_before_writing(tmp_path, monkeypatch):
    real = lower.lower

    def broken(model):
        tables = real(model)
        next(iter(tables["pages"]["pages"].values()))["year"] = "oops"
        return tables

    monkeypatch.setattr(lower, "lower", broken)
    out = tmp_path / "out"
    result = run_cli("compile", "--content", str(ROOT / "content"), "--out", str(out))
    assert result.exit_code == 1
    assert "内部エラー" in result.output and ".year" in result.output
    assert not out.exists()


# ---------------------------------------------------- schemas/ ← contract classes


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_schema_files_are_what_the_contract_generates():
    """schemas/ is written from contract/ (contract.schema), never by hand."""
    from contract.schema import schema_files

    on_disk = {p.name: p.read_text(encoding="utf-8")
               for p in sorted(build.SCHEMA_DIR.glob("*.schema.json"))}
    assert on_disk == schema_files()
    assert build.stale_schemas() == []


@pytest.mark.slow
def test_check_fails_when_a_schema_file_is_edited(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    schemas = tmp_path / "schemas"
    shutil.copytree(build.SCHEMA_DIR, schemas)
    monkeypatch.setattr(build, "SCHEMA_DIR", schemas)
    assert run_cli("compile", "--check").exit_code == 0
    edit(schemas / "decks.schema.json", '"minItems": 1', '"minItems": 0')
    result = run_cli("compile", "--check")
    assert result.exit_code == 1
    assert "schemas/decks.schema.json" in result.output
    for other in ("pages", "enemies", "balance", "vocabulary"):
        assert f"{other}.schema.json" not in result.output
    (schemas / "pages.schema.json").unlink()  # a missing schema is stale too
    result = run_cli("compile", "--check")
    assert result.exit_code == 1 and "schemas/pages.schema.json" in result.output


def test_no_schema_enum_has_duplicates():
    for name in TABLES:
        for node in _walk(schema(name)):
            if isinstance(node.get("enum"), list):
                assert len(node["enum"]) == len(set(map(repr, node["enum"]))), node["enum"]


def test_vocabulary_table_keeps_the_vocabulary_orders():
    """Tables are written with sorted keys, so every order the runtime needs is explicit."""
    text = (ROOT / "generated" / "vocabulary.py").read_text(encoding="utf-8")
    table = ast.literal_eval(table_literal(text))
    assert list(table["timings"]) != [t.code for t in vocab.TIMINGS]  # sorted by name …
    in_turn = sorted(table["timings"], key=lambda code: table["timings"][code]["order"])
    assert in_turn == [t.code for t in vocab.TIMINGS]                   # … order kept
    assert table["scopes"] == list(vocab.SCOPE_ORDER)
    assert table["lifetimes"] == [t.code for t in vocab.LIFETIMES]     # defense order
    assert {code: r["parts"] for code, r in table["regions"].items()} == \
        {r.code: list(r.parts) for r in vocab.REGIONS}


# ------------------------------------------------------------------ compile --check


def test_check_passes_on_the_bundled_content(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run_cli("compile", "--check")
    assert result.exit_code == 0, result.output


def test_check_names_the_stale_file_after_a_page_changes(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    before = snapshot(ROOT / "generated")
    content = copy_content(tmp_path)
    # A copy compiles to the same tables: source paths are relative to the folder above it.
    result = run_cli("compile", "--check", "--content", str(content))
    assert result.exit_code == 0, result.output
    edit(content / "pages" / "青年期.page", "銘 22", "銘 23")
    result = run_cli("compile", "--check", "--content", str(content))
    assert result.exit_code == 1, result.output
    assert "generated/pages.py" in result.output
    assert "generated/__init__.py" in result.output  # the manifest names pages.py's sha256
    for other in ("enemies", "balance", "decks", "vocabulary"):
        assert f"{other}.py" not in result.output
    assert snapshot(ROOT / "generated") == before  # --check writes nothing
    # content with errors: --check says it could not compare (it writes nothing anyway)
    edit(content / "pages" / "青年期.page", "銘 23", "銘 999")
    result = run_cli("compile", "--check", "--content", str(content))
    assert result.exit_code == 1, result.output
    assert "エラーがあるので generated/ と比べられませんでした。" in result.output
    assert "表を書きませんでした" not in result.output


@pytest.mark.slow
def test_check_against_another_folder(tmp_path):
    content, out = copy_content(tmp_path), tmp_path / "out"
    assert run_cli("compile", "--content", str(content), "--out", str(out)).exit_code == 0
    args = ("compile", "--check", "--content", str(content), "--out", str(out))
    assert run_cli(*args).exit_code == 0
    (out / "decks.py").unlink()
    edit(content / "enemies" / "日々.enemy", "HP 110", "HP 111")
    result = run_cli(*args)
    assert result.exit_code == 1
    # a missing file is said to be missing, a differing one old
    assert f"ありません: {out / 'decks.py'}" in result.output
    assert f"古い: {out / 'enemies.py'}" in result.output
    assert "通常のファイルでない" not in result.output
    assert "pages.py" not in result.output
    assert not (out / "decks.py").exists()
    # a folder where a table should be is neither missing nor old
    (out / "decks.py").mkdir()
    result = run_cli(*args)
    assert result.exit_code == 1
    assert f"ファイルではありません: {out / 'decks.py'}" in result.output
    assert f"古い: {out / 'decks.py'}" not in result.output
    assert "通常のファイルでないもの（フォルダ・リンクなど）は jibunki compile も書き換えません" in result.output
    # nor is a link to a regular file, which compile would not write through either
    (out / "decks.py").rmdir()
    (out / "decks.py").symlink_to(out / "enemies.py")
    result = run_cli(*args)
    assert f"ファイルではありません: {out / 'decks.py'}" in result.output
    assert run_cli("compile", "--content", str(content), "--out", str(out)).exit_code != 0


def test_check_says_a_table_it_cannot_read_is_unreadable_not_old(tmp_path, monkeypatch):
    content, out = copy_content(tmp_path), tmp_path / "out"
    assert run_cli("compile", "--content", str(content), "--out", str(out)).exit_code == 0
    unreadable = out / "decks.py"
    real_open = Path.open

    def refusing(self, *args, **kwargs):  # what a file of no read permission does (not root)
        if self == unreadable:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refusing)
    result = run_cli("compile", "--check", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert f"読めません: {unreadable}" in result.output and "古い" not in result.output
    assert "通常のファイルでない" not in result.output  # compile rewrites an unreadable file


def test_check_only_compares_python_tables():
    result = run_cli("compile", "--check", "--format", "json")
    assert result.exit_code == 2


# -------------------------------------------------------------- refusing and writing


def test_compile_refuses_content_with_errors_and_keeps_the_previous_tables(tmp_path):
    content, out = copy_content(tmp_path), tmp_path / "out"
    assert run_cli("compile", "--content", str(content), "--out", str(out)).exit_code == 0
    before = snapshot(out)
    assert set(before) == FILES
    edit(content / "pages" / "青年期.page", "銘 22", "銘 999")   # E030
    edit(content / "pages" / "幼少期.page", "銘 8", "銘 9")      # a valid change alongside
    result = run_cli("compile", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1
    assert "E030" in result.output and "書きませんでした" in result.output
    assert snapshot(out) == before

    fresh = tmp_path / "fresh"
    result = run_cli("compile", "--content", str(content), "--out", str(fresh))
    assert result.exit_code == 1
    assert not fresh.exists()


def test_compile_refuses_content_without_a_starting_deck(tmp_path):
    content, out = copy_content(tmp_path), tmp_path / "out"
    (content / "starter.deck").unlink()
    result = run_cli("compile", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1 and "starter" in result.output
    assert not out.exists()


@pytest.fixture
def two_compilations(tmp_path):
    """A folder holding the minimal case's tables, and the effects case's files."""
    old = compile_ok(GOLDEN / "minimal" / "content").files
    new = compile_ok(GOLDEN / "effects" / "content").files
    out = tmp_path / "out"
    write_atomically(out, old)
    assert sum(old[n] != new[n] for n in old) >= 3
    return out, old, new


def _texts(out: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}


def test_replace_failing_midway_leaves_the_previous_tables(two_compilations, monkeypatch):
    out, old, new = two_compilations
    real, calls = os.replace, []

    def flaky(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(OSError):
        write_atomically(out, new)
    monkeypatch.undo()
    assert len(calls) >= 2
    assert _texts(out) == old  # whole, and all from the same compilation; no temporaries


def test_writing_failing_midway_leaves_the_previous_tables(two_compilations, monkeypatch):
    out, old, new = two_compilations
    real, calls = os.fsync, []

    def flaky(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        return real(fd)

    monkeypatch.setattr(os, "fsync", flaky)
    with pytest.raises(OSError):
        write_atomically(out, new)
    monkeypatch.undo()
    assert _texts(out) == old


def test_interrupted_compile_command_leaves_the_previous_tables(tmp_path, monkeypatch):
    content, out = copy_content(tmp_path), tmp_path / "out"
    assert run_cli("compile", "--content", str(content), "--out", str(out)).exit_code == 0
    before = snapshot(out)
    edit(content / "pages" / "青年期.page", "銘 22", "銘 23")
    edit(content / "enemies" / "日々.enemy", "HP 110", "HP 111")
    real, calls = os.replace, []

    def interrupted(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(src, dst)

    monkeypatch.setattr(os, "replace", interrupted)
    result = run_cli("compile", "--content", str(content), "--out", str(out))
    monkeypatch.undo()
    assert result.exit_code != 0
    after = snapshot(out)
    assert set(after) == FILES  # no temporary file left behind
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}


def test_unchanged_files_are_not_rewritten(tmp_path, bundled):
    out = tmp_path / "out"
    assert write_atomically(out, bundled.files) == list(bundled.files)
    before = snapshot(out)
    assert write_atomically(out, bundled.files) == []
    assert stale_files(out, bundled.files) == []
    assert snapshot(out) == before


def test_written_tables_are_ordinary_readable_files(tmp_path, bundled):
    out = tmp_path / "out"
    write_atomically(out, bundled.files)
    mask = os.umask(0o022)
    os.umask(mask)
    for path in out.iterdir():
        assert path.stat().st_mode & 0o777 == 0o666 & ~mask, path.name
    (out / "pages.py").chmod(0o600)
    changed = dict(bundled.files, **{"pages.py": bundled.files["pages.py"] + "\n"})
    assert write_atomically(out, changed) == ["pages.py"]
    assert (out / "pages.py").stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_damaged_previous_file_is_stale_and_rewritten(tmp_path, bundled):
    out = tmp_path / "out"
    write_atomically(out, bundled.files)
    (out / "pages.py").write_bytes(b"TABLE = {'\xff\xfe")
    assert stale_files(out, bundled.files) == ["pages.py"]
    assert write_atomically(out, bundled.files) == ["pages.py"]
    assert stale_files(out, bundled.files) == []


# --------------------------------------------------------------------------- JSON


@pytest.mark.slow
@pytest.mark.parametrize("content", [ROOT / "content", GOLDEN / "strings" / "content"],
                         ids=["bundled", "strings"])
def test_json_export_equals_the_python_tables(content, tmp_path):
    out = tmp_path / "json"
    result = run_cli("compile", "--format", "json", "--content", str(content), "--out", str(out))
    assert result.exit_code == 0, result.output
    tables = compile_ok(content).tables
    assert {p.name for p in out.iterdir()} == {f"{name}.json" for name in TABLES} | {
        "manifest.json"}
    for name in TABLES:
        with open(out / f"{name}.json", encoding="utf-8") as handle:
            assert_identical(json.load(handle), tables[name], name)
    assert compile_ok(content, "json").files == {
        p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}


def test_json_refuses_non_finite_numbers():
    with pytest.raises(ValueError):
        build.render_json("pages", {"value": math.inf})


# ---------------------------------------------------------------------------- --out


def test_out_writes_only_inside_the_named_folder(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # anything written relative to the current folder lands here
    repo_before = {d: snapshot(ROOT / d) for d in ("generated", "content", "schemas")}
    py_out, json_out = tmp_path / "py", tmp_path / "js"
    for fmt, out in (("py", py_out), ("json", json_out)):
        result = run_cli("compile", "--format", fmt, "--content", str(ROOT / "content"),
                         "--out", str(out))
        assert result.exit_code == 0, result.output
    everything = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")}
    assert everything == ({"work", "py", "js"} | {f"py/{n}" for n in FILES}
                          | {f"js/{n}.json" for n in TABLES} | {"js/manifest.json"})
    assert {d: snapshot(ROOT / d) for d in repo_before} == repo_before
