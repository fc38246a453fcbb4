"""A real slicer in the loop: the Dremel 3D45 PrusaSlicer profile, headless slicing, G-code reading.

``write_profile`` writes the project's 3D45 profile (an .ini that PrusaSlicer imports with File >
Import > Import Config). ``slice_report`` slices an STL with that profile using the ``prusa-slicer``
command line and reads the G-code back: the extrusion under each ``;TYPE:`` role (PrusaSlicer tags
every extrusion with its role), so support material is measured, not guessed, and the slicer's own
print time and filament estimates from the G-code's closing comments.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from printables.check.results import CheckResult
from printables.params.printer import DREMEL_3D45, PROFILE_FILE, PrinterProfile

SLICER_ENV = "PRUSA_SLICER"  # path of the slicer binary, when it is not on PATH
SLICER_NAMES = ("prusa-slicer", "PrusaSlicer", "prusaslicer")
SLICE_TIMEOUT_S = 600
SUPPORT_ROLES = ("Support material", "Support material interface")
INSTALL_HINT = (
    "install PrusaSlicer (its installer for macOS or Windows, or apt-get install prusa-slicer) or set "
    f"{SLICER_ENV} to its binary"
)


class SlicerUnavailable(RuntimeError):
    """prusa-slicer is not installed (or not where PRUSA_SLICER points)."""


class SliceFailed(RuntimeError):
    """prusa-slicer ran but did not produce G-code."""


def _num(value: float) -> str:
    """A number as PrusaSlicer writes it: no trailing zeros."""
    return f"{value:g}"


# PrusaSlicer's support threshold 0 means "automatic": it supports what its overhang and bridge
# flow rules say cannot print, rather than every slope steeper than a set angle.
AUTO_SUPPORT_THRESHOLD_DEG = 0


def support_thresholds(profile: PrinterProfile = DREMEL_3D45) -> tuple[int, ...]:
    """The support thresholds the slicer check turns supports on at: automatic, then the profile's."""
    return (AUTO_SUPPORT_THRESHOLD_DEG, profile.support_threshold_deg)


def profile_settings(profile: PrinterProfile = DREMEL_3D45, support_threshold_deg: int | None = None) -> dict[str, str]:
    """PrusaSlicer settings (key -> value text) of ``profile``.

    Supports are off, as the user prints; the slicer check alone passes ``support_threshold_deg``
    (0 = PrusaSlicer's automatic threshold) to turn them on and prove none are needed.
    """
    w, d, h = profile.bed_mm
    supports = support_threshold_deg is not None
    return {
        # Printer
        "printer_model": "",
        "printer_notes": f"{profile.printer}, written by printables",
        "bed_shape": f"0x0,{_num(w)}x0,{_num(w)}x{_num(d)},0x{_num(d)}",
        "max_print_height": _num(h),
        "nozzle_diameter": _num(profile.nozzle_mm),
        "gcode_flavor": "marlin2",
        "use_relative_e_distances": "1",
        # Relative E needs a reset each layer, or rounding drifts over a long print.
        "layer_gcode": "G92 E0",
        "start_gcode": "G90\\nM83\\nG28 ; home all axes\\nG1 Z5 F3000\\nG92 E0",
        "end_gcode": "M104 S0\\nM140 S0\\nG91\\nG1 Z10 F600\\nG90\\nG28 X Y\\nM84",
        "retract_length": "1",
        "retract_speed": "40",
        "machine_limits_usage": "time_estimate_only",
        "machine_max_acceleration_extruding": str(profile.acceleration_mm_s2),
        "machine_max_acceleration_retracting": str(profile.acceleration_mm_s2),
        "machine_max_acceleration_travel": str(profile.acceleration_mm_s2),
        "machine_max_acceleration_x": str(profile.acceleration_mm_s2),
        "machine_max_acceleration_y": str(profile.acceleration_mm_s2),
        "machine_max_acceleration_z": "100",
        "machine_max_acceleration_e": "5000",
        "machine_max_feedrate_x": "150",
        "machine_max_feedrate_y": "150",
        "machine_max_feedrate_z": "12",
        "machine_max_feedrate_e": "60",
        "machine_max_jerk_x": "8",
        "machine_max_jerk_y": "8",
        "machine_max_jerk_z": "0.4",
        "machine_max_jerk_e": "5",
        # Filament
        "filament_type": profile.material,
        "filament_diameter": _num(profile.filament_mm),
        "filament_density": _num(profile.filament_density_g_cm3),
        "temperature": str(profile.nozzle_temp_c),
        "first_layer_temperature": str(profile.nozzle_temp_c + 5),
        "bed_temperature": str(profile.bed_temp_c),
        "first_layer_bed_temperature": str(profile.bed_temp_c),
        "cooling": "1",
        "fan_always_on": "1",
        "min_fan_speed": "100",
        "max_fan_speed": "100",
        "disable_fan_first_layers": "1",
        # Print
        "layer_height": _num(profile.layer_height_mm),
        "first_layer_height": _num(profile.layer_height_mm),
        "perimeters": str(profile.perimeters),
        "top_solid_layers": str(profile.top_layers),
        "bottom_solid_layers": str(profile.bottom_layers),
        "fill_density": f"{profile.infill_percent}%",
        "infill_every_layers": str(profile.infill_every_layers),
        "fill_pattern": "grid",
        "perimeter_generator": "arachne",
        "raft_layers": str(profile.raft_layers),
        "brim_width": "0",
        "skirts": "1",
        "skirt_distance": "3",
        "skirt_height": "1",
        "support_material": "1" if supports else "0",
        "support_material_auto": "1",
        "support_material_threshold": str(support_threshold_deg if supports else profile.support_threshold_deg),
        "support_material_buildplate_only": "0",
        "dont_support_bridges": "1",
        "elefant_foot_compensation": "0",
        "first_layer_speed": str(profile.first_layer_speed_mm_s),
        "perimeter_speed": str(profile.perimeter_speed_mm_s),
        "external_perimeter_speed": str(profile.external_perimeter_speed_mm_s),
        "small_perimeter_speed": str(profile.small_perimeter_speed_mm_s),
        "infill_speed": str(profile.infill_speed_mm_s),
        "solid_infill_speed": str(profile.solid_infill_speed_mm_s),
        "top_solid_infill_speed": str(profile.top_solid_infill_speed_mm_s),
        "gap_fill_speed": str(profile.gap_fill_speed_mm_s),
        "bridge_speed": str(profile.bridge_speed_mm_s),
        "support_material_speed": str(profile.perimeter_speed_mm_s),
        "travel_speed": str(profile.travel_speed_mm_s),
        "complete_objects": "0",
        "gcode_comments": "0",
        "output_filename_format": "{input_filename_base}.gcode",
    }


def profile_text(profile: PrinterProfile = DREMEL_3D45, support_threshold_deg: int | None = None) -> str:
    """The profile as PrusaSlicer .ini text, keys sorted so the file is the same on every run."""
    lines = [
        f"# {profile.printer}, {profile.material} {_num(profile.filament_mm)} mm,"
        f" {_num(profile.layer_height_mm)} mm layers, {profile.infill_percent} % infill,"
        f" no raft; written by printables",
        "# PrusaSlicer: File > Import > Import Config... then save it as your print profile.",
    ]
    lines += [f"{key} = {value}" for key, value in sorted(profile_settings(profile, support_threshold_deg).items())]
    return "\n".join(lines) + "\n"


def write_profile(path: Path | str, profile: PrinterProfile = DREMEL_3D45,
                  support_threshold_deg: int | None = None) -> Path:
    """Write the profile .ini to ``path`` (atomically) and return the path; supports off unless a threshold is given."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(profile_text(profile, support_threshold_deg), encoding="utf-8")
    os.replace(tmp, path)
    return path


def installer_paths() -> tuple[Path, ...]:
    """Where PrusaSlicer's own installers put the binary: the macOS app bundle (in /Applications or
    the user's), Windows' Program Files (the console binary, which prints its errors)."""
    home = Path.home()
    bundles = (Path("/Applications"), home / "Applications")
    mac = tuple(folder / app / "Contents/MacOS/PrusaSlicer" for folder in bundles
                for app in ("PrusaSlicer.app", "Original Prusa Drivers/PrusaSlicer.app"))
    program_files = [os.environ.get(name) for name in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)")]
    windows = tuple(Path(folder) / sub / exe for folder in dict.fromkeys(filter(None, program_files + [r"C:\Program Files"]))
                    for sub in ("Prusa3D/PrusaSlicer", "PrusaSlicer") for exe in ("prusa-slicer-console.exe", "prusa-slicer.exe"))
    return mac + windows


def slicer_path() -> str | None:
    """Path of the prusa-slicer binary (PRUSA_SLICER, PATH, then the installers' folders), or None."""
    override = os.environ.get(SLICER_ENV)
    if override:
        return override if Path(override).is_file() else shutil.which(override)
    for name in SLICER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    for path in installer_paths():
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


def is_slicer_available() -> bool:
    """Whether prusa-slicer can be run here."""
    return slicer_path() is not None


@dataclass(frozen=True)
class SliceReport:
    """What the slicer made of one STL: estimates and extrusion (filament mm) per role."""

    stl: str
    print_time_s: int
    filament_mm: float
    filament_cm3: float
    filament_g: float
    layers: int
    extrusion_by_role: tuple[tuple[str, float], ...]

    @property
    def support_mm(self) -> float:
        """Filament (mm) the slicer extruded as support material or support interface."""
        return sum(mm for role, mm in self.extrusion_by_role if role in SUPPORT_ROLES)

    @property
    def has_support(self) -> bool:
        """Whether the slicer generated any support material."""
        return self.support_mm > 0

    @property
    def filament_m(self) -> float:
        """Filament length in metres."""
        return self.filament_mm / 1000

    @property
    def print_time_text(self) -> str:
        """Print time as ``5 h 07 min``."""
        minutes = round(self.print_time_s / 60)
        return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


_TIME_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_STAT = re.compile(r"^; (filament used \[(mm|cm3|g)\]|estimated printing time \(normal mode\)) = (.+)$")


def parse_duration(text: str) -> int:
    """Seconds in a PrusaSlicer duration such as ``1d 2h 3m 4s``."""
    parts = re.findall(r"(\d+)([dhms])", text)
    if not parts:
        raise ValueError(f"not a PrusaSlicer duration: {text!r}")
    return sum(int(n) * _TIME_UNITS[unit] for n, unit in parts)


def parse_gcode(text: str, stl: str = "") -> SliceReport:
    """Read PrusaSlicer G-code: estimates from its closing comments, filament pushed per ``;TYPE:`` role.

    Only printing moves count: the extruder going forward while the head moves in X or Y.
    Retractions and the unretraction that follows each travel are not extrusion of any role
    (an unretraction at the start of a support island must not read as support).
    """
    role = "(none)"
    by_role: dict[str, float] = {}
    stats: dict[str, str] = {}
    relative = False
    last_e = 0.0
    layers = 0
    for line in text.splitlines():
        if line.startswith(";"):
            if line.startswith(";TYPE:"):
                role = line[6:].strip()
            elif line.startswith(";LAYER_CHANGE"):
                layers += 1
            else:
                match = _STAT.match(line)
                if match:
                    stats[match.group(2) or "time"] = match.group(3).strip()
            continue
        code = line.split(";", 1)[0].split()
        if not code:
            continue
        if code[0] == "M83":
            relative = True
        elif code[0] == "M82":
            relative = False
        elif code[0] == "G92":
            for word in code[1:]:
                if word[0] == "E":
                    last_e = float(word[1:])
        elif code[0] in ("G1", "G0", "G2", "G3"):
            moves = code[0] in ("G2", "G3") or any(word[0] in "XY" for word in code[1:])
            for word in code[1:]:
                if word[0] == "E":
                    e = float(word[1:])
                    if relative:
                        delta = e
                    else:
                        delta, last_e = e - last_e, e
                    if delta > 0 and moves:
                        by_role[role] = by_role.get(role, 0.0) + delta
    missing = [key for key in ("time", "mm", "cm3", "g") if key not in stats]
    if missing:
        raise SliceFailed(f"G-code for {stl or 'the part'} lacks the slicer's estimates ({missing})")
    return SliceReport(
        stl=stl,
        print_time_s=parse_duration(stats["time"]),
        filament_mm=float(stats["mm"]),
        filament_cm3=float(stats["cm3"]),
        filament_g=float(stats["g"]),
        layers=layers,
        extrusion_by_role=tuple(sorted((r, round(mm, 3)) for r, mm in by_role.items())),
    )


def slice_to_gcode(
    stl_path: Path | str, gcode_path: Path | str, profile: PrinterProfile = DREMEL_3D45,
    support_threshold_deg: int | None = None,
) -> Path:
    """Slice ``stl_path`` with ``profile`` into ``gcode_path``; raise when the slicer cannot."""
    binary = slicer_path()
    if binary is None:
        raise SlicerUnavailable(f"prusa-slicer not found: {INSTALL_HINT}")
    stl_path, gcode_path = Path(stl_path), Path(gcode_path)
    from printables import lifeline
    from printables.fileio import scratch_folder

    with scratch_folder("printables-slicer-") as work:  # named with our pid: swept if we are killed
        ini = write_profile(Path(work) / PROFILE_FILE, profile, support_threshold_deg)
        # A private data dir keeps the user's PrusaSlicer presets out of the run, and vice versa.
        cmd = [
            binary,
            "--datadir",
            str(Path(work) / "datadir"),
            "--loglevel",
            "1",
            "--load",
            str(ini),
            "--export-gcode",
            "--output",
            str(gcode_path),
            str(stl_path),
        ]
        # tied: the slicer ends with this process, even one killed with SIGKILL (printables/lifeline.py)
        run = subprocess.run(lifeline.tied(cmd), capture_output=True, text=True, timeout=SLICE_TIMEOUT_S,
                             env=slicer_env())
    if run.returncode != 0 or not gcode_path.is_file():
        tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
        raise SliceFailed(
            f"prusa-slicer failed on {stl_path.name} (exit {run.returncode}): {' | '.join(tail)}"
        )
    return gcode_path


def slicer_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The slicer's environment: ours under the C locale (a locale that is not installed makes
    PrusaSlicer fail, and a decimal comma would change its G-code comments)."""
    env = dict(os.environ if base is None else base)
    for name in [k for k in env if k.startswith("LC_")] + ["LANG", "LANGUAGE"]:
        env.pop(name, None)
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    return env


# Slicing a board half takes about 20 s: a build that writes the print card and then checks the
# same files slices each STL once, keyed by its bytes and the profile.
_REPORTS: dict[tuple[str, str, PrinterProfile, int | None], SliceReport] = {}
_PROFILE_THRESHOLD = object()  # slice_report's default: supports on at the profile's threshold


def slice_report(stl_path: Path | str, profile: PrinterProfile = DREMEL_3D45,
                 support_threshold_deg: int | None | object = _PROFILE_THRESHOLD) -> SliceReport:
    """Slice ``stl_path`` headless with the 3D45 profile and report time, filament and support.

    Supports are on at ``support_threshold_deg`` (the profile's 44 degrees unless given; 0 is
    automatic; None slices with supports off, as the written profile prints). A part that needs
    none slices the same either way, so its estimates are the printed profile's.
    """
    stl_path = Path(stl_path)
    if support_threshold_deg is _PROFILE_THRESHOLD:
        support_threshold_deg = profile.support_threshold_deg
    if slicer_path() is None:
        raise SlicerUnavailable(f"prusa-slicer not found: {INSTALL_HINT}")
    key = (stl_path.name, hashlib.sha256(stl_path.read_bytes()).hexdigest(), profile, support_threshold_deg)
    if key not in _REPORTS:
        from printables.fileio import scratch_folder

        with scratch_folder("printables-gcode-") as work:
            gcode = slice_to_gcode(stl_path, Path(work) / (stl_path.stem + ".gcode"), profile,
                                   support_threshold_deg)
            _REPORTS[key] = parse_gcode(gcode.read_text(encoding="utf-8", errors="replace"), stl_path.name)
    return _REPORTS[key]


def check_slices(stl_path: Path | str, require_slicer: bool = False) -> list[CheckResult]:
    """Printability by the slicer: zero support material with automatic supports on, and the estimates.

    Without prusa-slicer this says so in one result that passes, unless ``require_slicer``.
    """
    name = Path(stl_path).name
    if not is_slicer_available():
        return [
            CheckResult(
                f"slicer: {name}",
                not require_slicer,
                f"not verified with a slicer: prusa-slicer not found; {INSTALL_HINT}",
            )
        ]
    try:
        reports = {t: slice_report(stl_path, DREMEL_3D45, t) for t in support_thresholds()}
    except (SliceFailed, subprocess.TimeoutExpired) as error:
        return [CheckResult(f"slicer: {name}", False, str(error))]
    report = reports[DREMEL_3D45.support_threshold_deg]
    results = []
    for threshold, r in reports.items():
        how = "automatic threshold" if threshold == AUTO_SUPPORT_THRESHOLD_DEG else f"threshold {threshold} degrees"
        results.append(CheckResult(
            f"no support material ({how}): {name}",
            not r.has_support,
            f"PrusaSlicer with supports turned on ({how}) generated {r.support_mm:.0f} mm of support"
            " filament; the written profile prints with supports off",
        ))
    return results + [
        CheckResult(
            f"print estimate: {name}",
            True,
            f"{report.print_time_text}, {report.filament_g:.1f} g, {report.filament_m:.2f} m"
            f" of {DREMEL_3D45.filament_mm:g} mm {DREMEL_3D45.material}, {report.layers} layers",
        ),
    ]
