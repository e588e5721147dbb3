# Compiled reading its annotations as types (setup.py): a ``battle: BattleFields``, a
# ``s: State`` and a ``frame: Frame`` are read as C structs (runtime/state.pxd, sayou.pxd).
from runtime.state cimport BattleFields, PageInstance, State
from runtime.sayou cimport Frame
