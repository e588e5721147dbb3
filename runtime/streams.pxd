# Compiled reading its annotations as types (setup.py): splitmix64 in C's 64-bit
# unsigned integers, which wrap as the source's masks make Python's integers wrap; the
# streams extension types (a look-ahead copies them per option tried).
cdef unsigned long long _MASK, _GAMMA, _MIX1, _MIX2

cpdef unsigned long long _mix(unsigned long long x)

cdef class ShuffleStream:
    cdef public object seed, count

cdef class Streams:
    cdef public ShuffleStream shuffle
    cdef public object _seed, _effects, _enemy
