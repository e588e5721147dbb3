# Compiled reading its annotations as types (setup.py): the battle is an extension type
# whose fields (runtime/state.pxd BattleFields) its own methods read as a C struct.
from runtime.state cimport BattleFields, Face, PageInstance, State

cdef class Battle(BattleFields):
    pass
