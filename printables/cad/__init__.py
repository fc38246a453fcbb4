"""cadquery model builders: the only package importing cadquery, and only when a model command runs
(``printables giuthi``, ``build``'s model presets). cadquery is imported the ordinary way, with
the VTK display modules it loads at import time."""
