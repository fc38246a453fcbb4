"""Keep third-party libraries from reading or writing the user's home folder.

A command writes its output and nothing else: reportlab would import ``~/.reportlab_mods`` (and
crash when HOME is a file) and read ``~/.reportlab_settings`` (which could change the bytes of a
PDF); ezdxf, imported by CadQuery, writes a font cache to ``~/.cache/ezdxf`` (creating HOME if
missing). Both are configured here before they are imported, through what each library offers
for it (public names only): reportlab imports the optional user modules ``reportlab_mods`` and
``reportlab_settings`` from ``sys.modules`` first (its ``rl_config.py`` says so), so an empty
module there is all it reads; ezdxf keeps its font cache under ``$XDG_CACHE_HOME`` (its
``fonts/fonts.py`` says so). tests/test_reliability.py pins that no command writes to HOME.
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


def isolate_ezdxf() -> None:
    """Import ezdxf with its font cache pointed at a folder that cannot exist, quietly."""
    if "ezdxf" in sys.modules:
        return
    import logging  # here, not at the top: every command imports this module

    logging.getLogger("ezdxf").setLevel(logging.ERROR)
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = NO_CACHE_DIR
    try:
        import ezdxf  # noqa: F401  (cadquery imports it; the cache location is read at import)
    except ImportError:
        pass
    finally:
        if saved is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = saved
