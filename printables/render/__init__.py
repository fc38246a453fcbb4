"""reportlab renderers: walk layout data and draw it (the only package importing reportlab)."""

from __future__ import annotations

import importlib.util
import sys


def import_lazily(name: str) -> None:
    """Make ``import name`` give a module that is loaded on its first attribute access.

    reportlab imports Pillow's ``PIL.Image`` whenever it is imported (reportlab/lib/utils.py) but
    needs it only to draw a bitmap, which no sheet does; loading Pillow is about 15 % of a sheet
    command's start-up. The module loads in full the moment anything uses it (Python's own
    ``importlib.util.LazyLoader``), so whoever draws or reads an image gets all of Pillow.
    """
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)


import_lazily("PIL.Image")  # before any renderer imports reportlab
