"""printables: print-ready sheets and 3D models for five games, checked against their rules."""

__version__ = "0.1.0"

from printables.isolation import isolate_reportlab as _isolate_reportlab

_isolate_reportlab()
