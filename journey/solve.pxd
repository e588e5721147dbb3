# The compiled twin reads this module's annotations as types (setup.py). The search's
# own objects are extension types: their fields are read as a C struct (a search reads
# them some fifty times a position). Keep the fields in step with each __init__.

cdef class _Child:
    cdef readonly object action, state, over, key

cdef class _Search:
    cdef public object rules, budget, promise, best
    cdef public long long nodes, cap
    cdef public dict memo
    cdef public tuple best_line
    cdef public list path
