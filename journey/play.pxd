# The compiled twin reads this module's annotations as types (setup.py): ``s: State`` is
# journey/state.pxd's extension type, its fields read as a C struct. The functions a
# search's step runs through are cpdef, called as C functions here and from
# journey/search.pxd (the phases and actions, called through their tables, stay def).

cimport cython

from journey.state cimport State, standing
from journey.steps cimport (draw, lose, mill, move_black, ready_item, replaced, walk_white,
                            with_card, without)

cpdef list legal_actions(State state)
cpdef State advance(State state, tuple action)
cpdef State _step(State state, tuple action, ev)
@cython.locals(automatic=dict, passes=dict)
cpdef _run(State s, ev)
cpdef _pause(State s, str then)
@cython.locals(tapped=long, index=long)
cpdef bint _can_use_item(State s)
cpdef list resolvable(State s)
cpdef list _letter_actions(State s)
cpdef list _item_actions(State s)
