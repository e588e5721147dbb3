"""旅の測定 — ``jibunki journey report``: every variant solved and played (measure.py), as the
terminal shows it (text.py) and as a page (html.py, templates/journey.html.j2).

The top layer of journey/, beside journey/screen/: it reads the rules and the solver and
player below it, and the battle lab's shared parts (sim.stats, sim.backends, sim.report_*);
nothing below imports it (tests/test_layers.py).
"""
