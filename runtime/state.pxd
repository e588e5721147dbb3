# The compiled twin's view of runtime/state.py's records (setup.py): each an extension
# type whose fields are a C struct. Every field is a Python object, as in the source:
# the rules' functions read them directly where they are typed (``s: State``, in the
# modules that cimport them here). The frozen records' fields are read-only from Python.
# Keep each in step with its FIELDS.

cdef class Record:
    pass

cdef class Frozen(Record):
    pass

cdef class Face(Frozen):
    cdef readonly object state, blanked, penned

cdef class PageInstance(Frozen):
    cdef readonly object uid, page, zone, lifetime, faces

cdef class Placed(Record):
    cdef public object effect, origin, page_uid, scale, fires, distance, placed, windows
    cdef public object telegraph

cdef class State(Record):
    cdef public object seed, stages, stage_index, age, hp, steps, steps_carried, currency
    cdef public object defense, fray_run, fray_stage, rewards_given, counters, marks
    cdef public object play_counters, params, mods, pages, zones, effects, enemy, turn
    cdef public object turns_run, plays_run, pens_used, tears_used, redraw_used
    cdef public object redraw_failed, same_age_plays, suppress, outcome

cdef class BattleFields:
    cdef public State state
    cdef public object tables, streams, record, event_count, _records, emit, _start
    cdef public object _stack, _choice, _shown, count_scope, _index, _chain, _links_made
    cdef public object _links, _foreseen, foe, page_facts
