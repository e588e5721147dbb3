# The compiled twin's view of journey/state.py's State (setup.py): its fields as a C
# struct. Every field is a Python object, as in the source (the tuples checked to be
# tuples): the rules' functions read them directly where they are typed ``s: State``
# (the modules that cimport it here). Keep it in step with state.FIELDS.

cdef class State:
    cdef public object deal
    cdef public tuple deck, hand, discard, stacks
    cdef public object white
    cdef public tuple blacks
    cdef public object resolved, letters, tapped, lantern, phase
    cdef public tuple pending, resume
    cdef public object turn
    cdef public tuple queue
    cdef public object reason

# A key's hash, worked out once, is a C integer.
cdef class Key:
    cdef readonly tuple fields
    cdef readonly Py_hash_t hashed

# What a resolution reads, called as a C function by journey/play.pxd.
cpdef tuple standing(long white, tuple blacks)
