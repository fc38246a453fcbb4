"""printables: print-ready sheets and 3D models for five games, checked against their rules."""

__version__ = "0.1.0"

# The command line's first lines, inside one try: Ctrl-C that lands while they run (while `signal`
# itself loads, before its handler is in place) still ends in one line, never a traceback.
try:
    import os as _os
    import sys as _sys

    def is_command_line() -> bool:
        """Whether this process is the ``printables`` command (not a test or a program importing us)."""
        script = _os.path.normpath(_sys.argv[0]) if _sys.argv and _sys.argv[0] else ""
        if _os.path.basename(script) == "printables" or script.endswith(_os.path.join("printables", "__main__.py")):
            return True
        # `python -m printables`: while the package itself is imported, argv[0] is still "-m".
        original = list(getattr(_sys, "orig_argv", ()))
        return script == "-m" and "-m" in original and original[original.index("-m") + 1:][:1] == ["printables"]

    def _interrupted_early(signum, frame) -> None:  # nothing is written yet, so nothing to remove
        _os.write(2, b"Interrupted; no partial files were left.\n")
        _os._exit(128 + signum)

    if is_command_line():
        # First thing, before any slow import: Ctrl-C while the command starts ends with one line and
        # exit 130, never a KeyboardInterrupt traceback from inside an import. The command line
        # replaces this with printables.cleanup's handler, which also removes what a run has begun.
        import signal as _signal

        for _signum in (_signal.SIGINT, _signal.SIGTERM, getattr(_signal, "SIGHUP", None)):
            if _signum is not None:
                _signal.signal(_signum, _interrupted_early)
except KeyboardInterrupt:
    if "_interrupted_early" in globals() and is_command_line():
        _interrupted_early(2, None)  # SIGINT's number: exit 130
    raise

from printables.isolation import isolate_reportlab as _isolate_reportlab

_isolate_reportlab()
