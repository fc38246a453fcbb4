"""printables: print-ready sheets and 3D models for five games, checked against their rules."""

__version__ = "0.1.0"

import os as _os
import sys as _sys


def is_command_line() -> bool:
    """Whether this process is the ``printables`` command (not a test or a program importing us)."""
    script = _os.path.normpath(_sys.argv[0]) if _sys.argv and _sys.argv[0] else ""
    return _os.path.basename(script) == "printables" or script.endswith(_os.path.join("printables", "__main__.py"))


def _interrupted_early(signum, frame) -> None:  # nothing is written yet, so nothing to remove
    _os.write(2, b"Interrupted; no partial files were left.\n")
    _os._exit(128 + signum)


if is_command_line():
    # First thing, before any slow import: Ctrl-C while the command starts ends with one line and
    # exit 130, never a KeyboardInterrupt traceback from inside an import. The command line
    # replaces this with printables.cleanup's handler, which also removes what a run has begun.
    import signal as _signal

    for _signum in (_signal.SIGINT, _signal.SIGTERM):
        _signal.signal(_signum, _interrupted_early)

from printables.isolation import isolate_reportlab as _isolate_reportlab

_isolate_reportlab()
