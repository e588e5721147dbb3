# The compiled twin reads this module's annotations as types (setup.py): ``s: State`` is
# journey/state.pxd's extension type, and ``f: _Facts`` this one, their fields read as a
# C struct. Keep _Facts's fields in step with its __init__.

from journey.state cimport State

cdef class _Facts:
    cdef public object deal, suits, suit_of, number_of, key_of, suit_total, days, target
    cdef public object capacity, key_days, per_day, cost, red, white, green, blue
    cdef public object red_bit, white_bit, green_bit, blue_bit, lantern_index, lantern
    cdef public object yellow, radio, map, camera_index, camera, rucksack_index, rucksack
    cdef public object last, split, tent
    cdef public dict suit_counts, boards, unders, lookaheads, off_boards
