# The compiled twin's view of journey/state.py's Deal and State (setup.py): their fields
# as a C struct. Every field is a Python object, as in the source (the tuples checked to
# be tuples), but a deal's last day: the rules' functions read them directly where they
# are typed ``s: State`` (the modules that cimport it here), and ``s.deal`` is a Deal.
# Keep them in step with state.DEAL_FIELDS and state.FIELDS.

cdef class Deal:
    cdef readonly object rules
    cdef readonly tuple days, capacity, carried
    cdef readonly frozenset passive
    cdef readonly tuple tappable
    cdef readonly long last

cdef class State:
    cdef public Deal deal
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
