"""契約 (contract) — the one place that knows the shape of a table and the words of the
vocabulary. Standard library only; imported by the compiler, the runtime and every
consumer above them, importing none of them (DESIGN §8).

- ``contract.vocabulary``: every code and word of the effect system, defined once.
- ``contract.tables``: the compiled tables as frozen classes, one per representation.
- ``contract.codec``: those classes ↔ plain literals, and the JSON Schema generated
  from them.
"""

from .compiled import install as _install_compiled

_install_compiled()  # before contract.game, which has a compiled twin
