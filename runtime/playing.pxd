# Compiled reading its annotations as types (setup.py): a ``battle: BattleFields``, a
# ``s: State``, a frame and the play's records are read as C structs.
from runtime.state cimport BattleFields, Face, Frozen, PageInstance, Record, State
from runtime.sayou cimport Frame

cdef class PageFacts(Frozen):
    cdef readonly object year, free, unwritten, pens, pays, past_only, future_only, both
    cdef readonly object tests, pen_bodies, pen_tests, pen_pays

cdef class PlayPlan(Record):
    cdef public object year, cost, crosses, firing, bodies, frame
