# The compiled twin reads this module's annotations as types (setup.py): ``s: State`` is
# journey/state.pxd's extension type, its fields read as a C struct. The small changes
# are cpdef: the rules (journey/play.pxd, journey/effects.pxd) cimport them and call
# them as C functions — a search takes some seven steps a position, each a dozen calls.
# A C integer is declared here only (an ``int`` annotation in the source would be a
# Python int, which no declaration here can match).

cimport cython

from journey.state cimport State

cpdef bint walk_white(State s, long steps)
cpdef move_black(State s, long black, long steps, ev, str why)
cpdef mill(State s, ev, tuple resume)
cpdef draw(State s, ev, str why)
cpdef lose(State s, ev, str reason)
@cython.locals(tapped=long, index=long)
cpdef ready_item(State s, str effect)
cpdef interrupt(State s, str phase, tuple pending)
cpdef tuple without(tuple cards, card)
cpdef tuple with_card(tuple cards, card)
cpdef tuple replaced(tuple stacks, long day, tuple stack)
