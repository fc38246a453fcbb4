"""The ``printables`` command line: parse options, call the library, report. Nothing else."""

from __future__ import annotations

import os
import sys

from printables import is_command_line

if is_command_line():
    # Before the slow imports (click, then the game's libraries): Ctrl-C while they load also
    # removes what a run has begun (nothing yet) and ends with one line and exit 130.
    from printables import cleanup as _cleanup

    _cleanup.install_signal_handlers()

from pathlib import Path  # noqa: E402

import click  # noqa: E402

from printables import __version__  # noqa: E402
from printables.cli.types import OUTPUT_FOLDER, WHOLE, ExistingPath, examples  # noqa: E402
from printables.errors import ParameterError

DEFAULT_OUTPUT = Path("output")


# One module per game command; each defines a click command named like its module. They are
# imported only when used, so `printables harvest` never pays for the other games' rule cores.
GAME_COMMANDS = ("harvest", "minefield", "peas", "patchwork", "giuthi")
# Other commands defined in a module of their own, imported the same way (command name -> module).
COMMAND_MODULES = {**{name: f"printables.cli.{name}" for name in GAME_COMMANDS}, "serve": "printables.serve.command"}


class OneLineErrors(click.Group):
    """A group whose usage and parameter errors are one line on stderr with exit code 2."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(COMMAND_MODULES))

    def get_command(self, ctx, name):
        if name in COMMAND_MODULES:
            import importlib

            return getattr(importlib.import_module(COMMAND_MODULES[name]), name)
        return super().get_command(ctx, name)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from printables import cleanup

        if args is None:  # the real command line (not a test runner): Ctrl-C and SIGTERM end cleanly
            cleanup.install_signal_handlers()
        code = run_reporting_errors(lambda: super(OneLineErrors, self).main(
            args, prog_name, complete_var, standalone_mode=False, **extra))
        if args is None:
            cleanup.ignore_signals()  # the run is over: a late Ctrl-C must not kill Python's own exit
        sys.exit(code)


def run_reporting_errors(call) -> int:
    """Run ``call`` and turn every expected error into one line on stderr and an exit code.

    0 done, 1 a check failed, 2 bad input (options, presets, paths), 130 interrupted. Anything else
    is a bug: still one line (exit 1), with the traceback only when PRINTABLES_DEBUG is set.
    """
    from printables import cleanup

    try:
        rv = call()
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help(), err=True)
        return 2
    except click.ClickException as error:
        click.echo(f"Error: {error.format_message()}", err=True)
        return error.exit_code
    except ParameterError as error:
        click.echo(f"Error: {error}", err=True)
        return 2
    except OSError as error:  # a path the user named cannot be read or written
        where = f" {error.filename}" if error.filename else ""
        click.echo(f"Error: cannot use{where}: {error.strerror or error}", err=True)
        return 2
    except (KeyboardInterrupt, click.Abort):
        cleanup.remove_pending()
        click.echo("Interrupted; no partial files were left.", err=True)
        return 130
    except click.exceptions.Exit as done:
        return done.exit_code
    except Exception as error:
        if os.environ.get("PRINTABLES_DEBUG"):
            raise
        cleanup.remove_pending()
        text = " ".join(str(error).split())[:200]
        click.echo(f"Error: internal error ({type(error).__name__}: {text}); "
                   "please report it (PRINTABLES_DEBUG=1 shows the traceback)", err=True)
        return 1
    return rv if isinstance(rv, int) else 0


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]}, epilog=examples(
    "printables list",
    "printables build harvest-10x10-a4",
    "printables harvest --paper A4 -o harvest.pdf",
    "printables check harvest.pdf",
))
@click.version_option(__version__, prog_name="printables")
def main() -> None:
    """Print-ready sheets and 3D models for five games, each checked against its rules."""


PRESETS_OPTION = click.option(
    "--presets", "preset_folders", multiple=True, type=ExistingPath(exists=True, file_okay=False, path_type=Path),
    help="Read presets from this folder (its templates/ and models/, or its TOML files) instead of the project's.")


@main.command("list", epilog=examples(
    "printables list",
    "printables list --presets my-presets",
))
@PRESETS_OPTION
def list_presets(preset_folders: tuple[Path, ...]) -> None:
    """Show every preset with a one-line description."""
    from printables.build import NO_PRESETS, all_presets, preset_source

    presets = all_presets(preset_folders)
    if not presets:
        raise ParameterError(NO_PRESETS)
    width = max((len(p.name) for p in presets), default=0)
    for preset in presets:
        click.echo(f"{preset.name:<{width}}  {preset.kind:<14} {preset.description}")
    folders, source = preset_source(preset_folders)
    click.echo(f"({len(presets)} presets from {source}: {', '.join(map(str, folders))})")


@main.command(epilog=examples(
    "printables build harvest-10x10-a4 peas-a6",
    "printables build -o /tmp/sheets minefield-11x11-a4",
    "printables build --presets my-presets",
    "printables build --no-slice --jobs 2 --verbose",
))
@click.argument("names", nargs=-1)
@click.option("-o", "--output", type=OUTPUT_FOLDER, default=DEFAULT_OUTPUT,
              show_default=True, help="Folder to build into.")
@PRESETS_OPTION
@click.option("--no-slice", "no_slice", is_flag=True,
              help="Skip the PrusaSlicer steps: no time and filament on the print card, no slicer checks.")
@click.option("-j", "--jobs", type=WHOLE, default=None,
              help="Presets built at once, each in its own process; the files are the same for any number. "
                   "[default: the number of CPUs]")
@click.option("-v", "--verbose", is_flag=True, help="Show the time of each step of each preset.")
def build(names: tuple[str, ...], output: Path, preset_folders: tuple[Path, ...], no_slice: bool,
          jobs: int | None, verbose: bool) -> int:
    """Build every preset (or the NAMES given) into OUTPUT and check each result."""
    import time

    from printables.build import NO_PRESETS, all_presets, build_presets, validate_preset

    started = time.perf_counter()
    asked_no_slice = no_slice
    presets = all_presets(preset_folders)
    if not presets:
        raise ParameterError(NO_PRESETS)
    known = {p.name: p for p in presets}
    for name in names:
        if name not in known:
            raise click.BadParameter(f"unknown preset {name!r}; `printables list` shows the {len(known)} presets", param_hint="NAMES")
    if jobs is not None and jobs < 1:
        raise click.BadParameter(f"{jobs}: run at least 1 job at a time", param_hint="'-j' / '--jobs'")
    chosen = [known[n] for n in names] if names else presets
    for preset in chosen:  # every preset's parameters are valid before anything is built
        validate_preset(preset)
    jobs = jobs or os.cpu_count() or 1
    from printables.models import MODEL_KINDS

    if not no_slice and any(p.kind in MODEL_KINDS for p in chosen):
        from printables.check.dispatch import slicer_required
        from printables.check.slicer import INSTALL_HINT, is_slicer_available

        if not is_slicer_available() and not slicer_required():  # said once here, not once per part
            click.echo(f"PrusaSlicer steps skipped: prusa-slicer not found ({INSTALL_HINT}); "
                       "the print cards say how to slice the 3MFs in PrusaSlicer, DigiLab 3D Slicer or Cura")
            no_slice = True
    failed = 0
    step_totals: dict[str, tuple[float, float]] = {}
    for built in build_presets(chosen, output, jobs=jobs, slicer=not no_slice):
        preset = built.preset
        passed = sum(r.ok for r in built.results)
        shown = built.checked or built.paths
        where = shown[0] if len(shown) == 1 else shown[0].parent
        status = "ok  " if built.ok else "FAIL"
        click.echo(f"{status} {preset.name}: {where}  ({len(built.paths)} file(s), {passed}/{len(built.results)} checks)")
        for result in built.results:
            if not result.ok:
                click.echo(f"     {result}")
        for step, wall, cpu in built.steps:
            total = step_totals.get(step, (0.0, 0.0))
            step_totals[step] = (total[0] + wall, total[1] + cpu)
        if verbose:
            click.echo("     time: " + ", ".join(f"{step} {wall:.1f} s (CPU {cpu:.1f})" for step, wall, cpu in built.steps))
        failed += not built.ok
    elapsed = time.perf_counter() - started
    click.echo(f"{len(chosen) - failed} of {len(chosen)} preset(s) built and checked" + (f"; {failed} failed" if failed else "")
               + f" in {elapsed:.1f} s ({jobs} job{'s' if jobs > 1 else ''})"
               + ("; PrusaSlicer steps skipped" + (" (--no-slice)" if asked_no_slice else "") if no_slice else ""))
    click.echo("time per step, summed over presets: "
               + ", ".join(f"{step} {wall:.1f} s (CPU {cpu:.1f})"
                           for step, (wall, cpu) in sorted(step_totals.items(), key=lambda kv: -kv[1][0])))
    return 1 if failed else 0


@main.command(epilog=examples(
    "printables check harvest.pdf",
    "printables check output/peas",
    "printables check output/giuthi output/harvest",
))
@click.argument("paths", nargs=-1, required=True, type=ExistingPath(exists=True, path_type=Path))
def check(paths: tuple[Path, ...]) -> int:
    """Read produced files back and check them against the rules and their parameters."""
    from printables.check.dispatch import check_file, expand

    failed = 0
    files = [f for path in paths for f in (expand(path) or [path])]
    for path in files:
        results = check_file(path)
        bad = [r for r in results if not r.ok]
        click.echo(f"{'FAIL' if bad else 'ok  '} {path}")
        for result in results:
            click.echo(f"  {result}")
        failed += bool(bad)
    return 1 if failed else 0
