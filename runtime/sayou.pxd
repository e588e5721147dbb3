# Compiled reading its annotations as types (setup.py): a ``battle: BattleFields`` and a
# ``s: State`` are read as the C structs of runtime/state.pxd.
from runtime.state cimport BattleFields, PageInstance, State

cdef class Frame:
    cdef public object page_uid, distance, crosses, anchor, scale, windows, times
