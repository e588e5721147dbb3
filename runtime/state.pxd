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
    cdef public object seed, stage_index, age, hp, steps, steps_carried, currency
    cdef public object fray_run, fray_stage, rewards_given, turn, turns_run, plays_run
    cdef public object pens_used, tears_used, redraw_used, redraw_failed, same_age_plays
    cdef public object suppress, outcome
    # The containers by their exact type: the rules' .get, .append and [i] on them
    # compile to the dict's and the list's own calls.
    cdef public list stages, defense, mods, pages, effects
    cdef public dict counters, marks, play_counters, params, zones, enemy

cdef class BattleFields:
    cdef public State state
    cdef public object tables, streams, record, event_count, emit, _start
    cdef public object _choice, _shown, count_scope, _index, _links_made, _foreseen, foe
    cdef public list _records, _stack, _chain
    cdef public dict _links, page_facts, dealt_by
    cdef public list stages_won
    cdef public object crediting
