"""Every public name that other modules call says what it is: each module-level public
function and class, and each public method (properties included) of a public class, has a
docstring.

The syntax tree of every tracked module is read; what is exempt is data below, each with
its reason.
"""

from __future__ import annotations

import ast
import subprocess

import pytest

from conftest import ROOT

#: Folders whose modules are not the project's public surface.
EXEMPT_FOLDERS = (
    "tests/",       # the tests document themselves by their names
    "generated/",   # written by the compiler, not by hand
    "benchmarks/",  # measurements, called by nobody
)


#: Base classes whose methods are callbacks named after something else, documented by
#: the class's own docstring: a lark ``Transformer`` subclass's methods are grammar-rule
#: callbacks, named after the rules of the grammar (dsl/transform.py).
CALLBACK_BASES = {
    "Transformer": "lark grammar-rule callbacks; the class docstring covers them",
    "lark.Transformer": "lark grammar-rule callbacks; the class docstring covers them",
}

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def modules() -> list[str]:
    """Every git-tracked module the check reads."""
    listed = subprocess.run(["git", "ls-files", "*.py"], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout.split()
    return [f for f in listed
            if not f.startswith(EXEMPT_FOLDERS)]


def _public(name: str) -> bool:
    return not name.startswith("_")


def _callbacks(node: ast.ClassDef) -> bool:
    """Whether the class's methods are callbacks exempt by their base (CALLBACK_BASES)."""
    return any(ast.unparse(base) in CALLBACK_BASES for base in node.bases)


def missing(source: str, path: str) -> list[str]:
    """``path:line name`` of every public function, class and method without a docstring."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, (*FUNCTIONS, ast.ClassDef)) or not _public(node.name):
            continue
        if not ast.get_docstring(node):
            found.append(f"{path}:{node.lineno} {node.name}")
        if isinstance(node, ast.ClassDef) and not _callbacks(node):
            for member in node.body:
                if (isinstance(member, FUNCTIONS) and _public(member.name)
                        and not ast.get_docstring(member)):
                    found.append(f"{path}:{member.lineno} {node.name}.{member.name}")
    return found


@pytest.mark.slow
def test_every_public_name_has_a_docstring():
    found = [hit for path in modules()
             for hit in missing((ROOT / path).read_text(encoding="utf-8"), path)]
    assert not found, f"{len(found)} public names without a docstring:\n" + "\n".join(found)


def test_the_checker_sees_a_missing_docstring():
    source = '''
def said():
    """Said."""

def unsaid():
    pass

def _private():
    pass

class Thing:
    """A thing."""

    def method(self):
        pass

    @property
    def value(self):
        return 1

    def __init__(self):
        pass

    def _helper(self):
        pass

class _Hidden:
    def method(self):
        pass

class Rules(Transformer):
    """Callbacks."""

    def rule(self, children):
        return children

class Bare:
    pass
'''
    assert missing(source, "m.py") == [
        "m.py:5 unsaid",
        "m.py:14 Thing.method",
        "m.py:18 Thing.value",
        "m.py:37 Bare",
    ]
