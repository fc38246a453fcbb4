"""Keep third-party libraries from reading or writing the user's home folder.

A command writes its output and nothing else: reportlab would import ``~/.reportlab_mods`` (and
crash when HOME is a file) and read ``~/.reportlab_settings`` (which could change the bytes of a
PDF); ezdxf, imported by CadQuery, writes a font cache to ``~/.cache/ezdxf`` (creating HOME if
missing). Both are configured here before they are imported.
"""

from __future__ import annotations

import os
import sys
import types

# A path no one can create: ezdxf then keeps its font list in memory (about 0.2 s per run).
NO_CACHE_DIR = "/dev/null/printables-no-cache"


def isolate_reportlab() -> None:
    """Make reportlab's optional user modules empty, so it never looks in HOME for them."""
    for name in ("reportlab_mods", "reportlab_settings"):
        if name not in sys.modules:
            sys.modules[name] = types.ModuleType(name, "printables: user customisations are not read")


def _without_cache(action):
    """``action()`` with ezdxf's cache folder pointed at a path that cannot exist."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = NO_CACHE_DIR
    try:
        return action()
    finally:
        if saved is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = saved


class _FontScanDeferred:
    """While ezdxf is imported, its font manager's ``build`` (a scan of every system font folder,
    ~0.5 s with many fonts installed) does nothing; after the import the font manager scans on
    its first use (any attribute), exactly as ezdxf's import would have (``fonts.load()``).

    CadQuery imports ezdxf for DXF import/export, and the models never use ezdxf's fonts, so a
    build no longer pays the scan; whoever uses them gets the same font list as before."""

    def find_spec(self, name, path=None, target=None):
        if name != "ezdxf.fonts.font_manager":
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            real = module.FontManager.build
            module.FontManager.build = lambda self, *args, **kwargs: None
            module.FontManager._printables_real_build = real

        spec.loader.exec_module = exec_module
        return spec


def _defer_font_scan() -> None:
    """After the import: the real ``build`` back, and the scan made on the font manager's first use."""
    try:
        from ezdxf.fonts import fonts
        from ezdxf.fonts.font_manager import FontManager
    except ImportError:
        return
    real = FontManager.__dict__.get("_printables_real_build")
    if real is None:  # imported before, or by another route: nothing deferred
        return
    FontManager.build = real
    del FontManager._printables_real_build

    class Unscanned(FontManager):
        def __getattribute__(self, name):
            object.__setattr__(self, "__class__", FontManager)
            _without_cache(fonts.load)
            return getattr(self, name)

    fonts.font_manager.__class__ = Unscanned


def isolate_ezdxf() -> None:
    """Import ezdxf with its font cache pointed at a folder that cannot exist, quietly, and its
    font scan deferred to the first use of its fonts."""
    if "ezdxf" in sys.modules:
        return
    import logging  # here, not at the top: every command imports this module

    logging.getLogger("ezdxf").setLevel(logging.ERROR)
    hook = _FontScanDeferred()
    sys.meta_path.insert(0, hook)

    def load():
        try:
            import ezdxf  # noqa: F401  (cadquery imports it; the cache location is read at import)
        except ImportError:
            pass

    try:
        _without_cache(load)
    finally:
        sys.meta_path.remove(hook)
    _defer_font_scan()
