"""戦闘 — the battle runtime: plays battles from the compiled tables (DESIGN §5)."""

from contract.compiled import install as _install_compiled

_install_compiled()  # before any module that has a compiled twin (contract/compiled.py)
