"""旅の測定 — ``jibunki journey report``: every variant solved and played (measure.py), as the
terminal shows it (text.py) and as a page (html.py, templates/journey.html.j2); one set-up
alone for the editor's 「この 準備で測る」 (one_setup.py).

The top layer of journey/, beside journey/screen/: it reads the rules and the solver and
player below it, and the labs' shared parts (sim.backends: the runner; sim.stats; the
renderers sim.render_text and sim.render_html, given the journey's columns as data);
nothing below imports it (tests/test_layers.py).
"""
