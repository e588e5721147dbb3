"""相互作用の解析 — what a page can set off, read from the effect lists alone, before any
battle (issue 31). The modules, in the order of the analysis:

    content   the content as the analysis reads it (pages, enemies, the balance: contract objects)
    events    the vocabulary of events: what each 作用 produces, which timing listens to each
    graph     the trigger graph (networkx): 作用 → events → the 作用 that listen to them
    cycles    W006: loops of triggers that nothing bounds, each with a witness 例 (witness)
    growth    W007: values that compound each turn without end, with their value at turn 20
    faces     W008: faces whose play conditions can never hold (or rarely do)
    listeners W009: continuing 作用 whose timing nothing in the content produces
    dominance W010: pages no better than another in every number
    findings  every check above, run in order: one list of findings

Only contract objects and networkx are read here: the compiler (lint), the catalog, the
language server and ``jibunki analyze`` all call the same functions.
"""
