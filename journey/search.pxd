# The compiled twin reads this module's annotations as types (setup.py): ``s: State`` is
# journey/state.pxd's extension type, and ``f: _Facts`` this one, their fields read as a
# C struct. Keep _Facts's fields in step with its __init__: its counts, days, bits and
# flags are C integers (each is always an int or a bool there), the rest objects.

cimport cython

from journey.state cimport State, standing
from journey.play cimport advance, legal_actions

cdef class _Facts:
    cdef public object deal, suit_total, cards_of
    cdef public tuple suit_of, number_of, key_of, capacity
    cdef public long suits, days, target, key_days, per_day, cost, last
    cdef public object red, white, green, blue
    cdef public long red_bit, white_bit, green_bit, blue_bit
    cdef public object lantern_index, yellow, radio, map, camera_index, rucksack_index
    cdef public object tent_index
    cdef public bint lantern, camera, rucksack, split, tent, tent_always
    cdef public dict suit_counts, boards, unders, lookaheads
    cdef public object board_stacks, board, under_stacks, unders_here
    cdef public long under_notes

    cpdef tuple board_of(self, tuple stacks)
    @cython.locals(low=long, high=long, packed=long, suit=long, n=long, need=long, day=long,
                   under=long, here=dict)
    cpdef long under_pawns(self, tuple stacks, long white, tuple blacks, long done)

# The bound's arithmetic in C integers (the search asks it of every child it visits,
# some three a position expanded: a fifth of a solve's time). Every one of these is a
# small count or a day; the division and remainders keep Python's floor semantics
# (cdivision is off).

@cython.locals(deck=long, extra=long, fixes=long, inflight=long, key_days=long,
               last_put=long, last_resolution=long, least_walk=long, left=long,
               letters_ever=long, map_step=long, memories=long, mills=long, most=long,
               needed=long, nudges=long, pawn_sum=long, per_extra=long, plays=long,
               ready=long, refills=long, shift=long, short=long, steps=long, t=long,
               unresolved=long, value=long, walk=long, days=long, to=long, suit=long,
               turns=long, letters_spent=long, post=long, e_now=long,
               effect_turns=long, free_mills=long, last_play=long, ready_sack=long,
               p_now=long, r_now=long, t0=long, low=long, high=long, black=long,
               camera=long, per_day=long, cost=long, key_days_all=long, spent_days=long,
               resolved=long, live=long, spent=tuple,
               phase=str, pending=tuple,
               blue=bint, green=bint, has_camera=bint, fading=bint, rucksack=bint,
               red=bint, called=bint, stepped=bint, map_ready=bint)
cpdef object bound(State s)

# The facts of the deal, the promise and the look-ahead: C calls inside the module (a
# search asks the facts some ten times a position, the promise some five).
cpdef _Facts _facts(deal)
@cython.locals(suits=long, done=long, resolved=long, white=long, low=long, high=long,
               letters=long, under=long, days=long, last=long, off=long, value=long)
cpdef long promise(State s)
cpdef lookahead(State s)
