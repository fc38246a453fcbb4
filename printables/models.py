"""Model kinds: parameters → CadQuery solids → STL/STEP, plus what a printer needs beside them.

For the Giuthi board that is: both halves and the seed sprue (STL for the slicer, STEP for remixing),
the parameter manifest the checks read, the Dremel 3D45 PrusaSlicer profile, the print settings card
with the slicer's time and filament per part (when PrusaSlicer is installed), and PNG previews.
cadquery is imported only here, inside the build functions.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any, Callable, Mapping

from printables.errors import ParameterError
from printables.params.giuthi_board import GiuthiBoardParams
from printables.params.giuthi_board import from_mapping as board_from_mapping
from printables.params.giuthi_board import screen_values, screw_length_for

MODEL_KINDS = ("giuthi-board",)
PRINT_CARD_FILE = "giuthi-print-settings.pdf"
SEED_RGB = (196, 62, 40)  # seeds in a colour that stands out against the board's

Progress = Callable[[str], None]
# The general advice after a capacity refusal; the command line replaces it with fixes it has tried.
CAPACITY_ADVICE = " use smaller seeds, larger or deeper bowls, or fewer seeds per pit"


# Preset keys that say how the set is printed, not what the board is: the language of its print
# card and rules sheet, and the rules sheet's paper.
SET_OPTIONS = {"lang": "en", "paper": "a4"}
RULES_PAPERS = ("a4", "letter")


def set_options(mapping: Mapping[str, Any], source: str = "parameters") -> dict[str, str]:
    """The set options (``lang``, ``paper``) of a model preset's parameters, validated, defaults filled in."""
    from printables.i18n import LANGS

    options = {key: mapping.get(key, default) for key, default in SET_OPTIONS.items()}
    if options["lang"] not in LANGS:
        raise ParameterError(f"{source}: lang {options['lang']!r}: use one of {', '.join(LANGS)}")
    if options["paper"] not in RULES_PAPERS:
        raise ParameterError(f"{source}: paper {options['paper']!r}: use one of {', '.join(RULES_PAPERS)}")
    return options


def model_params(kind: str, mapping: Mapping[str, Any], source: str = "parameters") -> GiuthiBoardParams:
    """The validated parameters of a model kind; a board too small for its seeds is refused.

    The set options (``lang``, ``paper``) may stand beside the board's parameters; they are
    validated here and left to the set (``set_options``)."""
    if kind != "giuthi-board":
        raise KeyError(kind)
    set_options(mapping, source)
    mapping = {key: value for key, value in mapping.items() if key not in SET_OPTIONS}
    try:
        screen_values(mapping)
    except ParameterError as error:
        raise ParameterError(f"{source}: {error}") from None
    if "screw_length_mm" not in mapping:  # a screw chosen alone gets a length that bites
        mapping["screw_length_mm"] = screw_length_for(mapping)
    if "size_mm" in mapping:
        mapping = _sized(mapping, source)
    try:
        board = board_from_mapping(mapping, source)
    except ParameterError:
        _refuse_oversized(mapping, source)
        raise
    short = capacity_shortfall(board)
    if short:
        raise CapacityError(f"{source}: {short}", board)
    return board


class CapacityError(ParameterError):
    """A board whose pits or stores cannot hold the seeds its games need (``board`` says which board)."""

    def __init__(self, message: str, board: GiuthiBoardParams) -> None:
        super().__init__(message)
        self.board = board


def _holds_seeds(mapping: Mapping[str, Any]) -> bool:
    try:
        model_params("giuthi-board", {k: v for k, v in mapping.items() if v is not None})
    except ParameterError:
        return False
    return True


def capacity_fixes(board: GiuthiBoardParams, base: Mapping[str, Any], given: Mapping[str, Any],
                   presets: Mapping[str, Mapping[str, Any]], current: str | None = None) -> list[str]:
    """Command-line changes that give a board holding the seeds, each one tried and accepted.

    ``base`` is the preset's parameters (or empty), ``given`` the options typed (field names),
    ``presets`` every model preset's parameters by name and ``current`` the preset in use. Tried:
    smaller seeds (0.5 mm steps), another preset (with the same pits and seeds), the largest plan
    (``--size``), deeper pits and, last, fewer seeds per pit; only those whose board passes
    ``model_params`` are returned, as the options to type.
    """
    from printables.params.giuthi_board import size_limits
    import math

    from printables.params.giuthi_seeds import MIN_SEED_DIAMETER_MM

    from printables.rules.giuthi import MIN_SEEDS_PER_PIT

    mapping = {**base, **given}
    fixes: list[str] = []
    ratio = seed_params_for(board).seed_width_ratio
    # Smaller seeds: the largest bean that fits (the sprue follows the board's seeds).
    diameter = round(board.seed_diameter_mm - 0.5, 3)
    while diameter >= MIN_SEED_DIAMETER_MM - 1e-9:
        # A bean is never taller than it is wide: a smaller bean may need a lower one too.
        height = min(board.seed_height_mm, math.floor(diameter * ratio * 2) / 2)
        trial = {**mapping, "seed_diameter_mm": diameter, "seed_height_mm": height}
        if _holds_seeds(trial):
            lower = f" --seed-height {height:g}" if height != board.seed_height_mm else ""
            fixes.append(f"--seed-diameter {diameter:g}{lower}")
            break
        diameter = round(diameter - 0.5, 3)
    # Another preset, playing the same board (2xN, S seeds).
    for name, params in sorted(presets.items()):
        if name == current:
            continue
        trial = {**params, **given}
        extra = []
        for field, flag, value in (("pits_per_row", "--pits", board.pits_per_row),
                                   ("seeds_per_pit", "--seeds", board.seeds_per_pit)):
            if trial.get(field, getattr(GiuthiBoardParams, field)) != value:
                trial[field] = value
                extra.append(f"{flag} {value}")
        if _holds_seeds(trial):
            fixes.append(" ".join([f"--preset {name}", *extra]))
    # The largest plan: the pits grow to fill it (stores keep their size).
    if not {"pit_diameter_mm", "pit_length_mm"} & set(given):
        plain = {k: v for k, v in mapping.items() if k not in ("pit_diameter_mm", "pit_length_mm", "size_mm")}
        (_, _), (width, height) = size_limits(plain)
        if _holds_seeds({**plain, "size_mm": f"{width:g}x{height:g}"}):
            fixes.append(f"--size {width:g}x{height:g}")
    # Deeper pits (and a board as much thicker): only the pits grow, so only for a pits shortfall.
    floor = board.thickness_mm - max(board.pit_depth_mm, board.store_depth_mm)
    for extra_mm in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0):
        depth = round(board.pit_depth_mm + extra_mm, 3)
        thickness = round(max(board.thickness_mm, depth + floor), 3)
        if _holds_seeds({**mapping, "pit_depth_mm": depth, "thickness_mm": thickness}):
            fixes.append(f"--pit-depth {depth:g} --thickness {thickness:g}")
            break
    if not fixes:
        for seeds in range(board.seeds_per_pit - 1, MIN_SEEDS_PER_PIT - 1, -1):
            if _holds_seeds({**mapping, "seeds_per_pit": seeds}):
                fixes.append(f"--seeds {seeds}")
                break
    sizes = [k for k in ("pit_diameter_mm", "pit_length_mm") if k in given]
    if not fixes and sizes:
        # The pits typed are too small for anything: the same with the preset's (or default) pits.
        flags = " and ".join(f"--{k.removesuffix('_mm').replace('_', '-')}" for k in sizes)
        plain = {k: v for k, v in given.items() if k not in sizes}
        try:
            model_params("giuthi-board", {**base, **plain})
            fixes.append(f"leave out {flags}")
        except CapacityError as error:
            fixes += [f"leave out {flags} and use {fix}" for fix in
                      capacity_fixes(error.board, base, plain, presets, current) if not fix.startswith("leave")]
        except ParameterError:
            pass
    return fixes


def _refuse_oversized(mapping: Mapping[str, Any], source: str) -> None:
    """For a board too big for the bed: refuse naming only the fixes whose board also holds the seeds."""
    from printables.params.giuthi_board import bed_fixes, bed_refusal, oversized

    board = oversized(mapping)
    if board is None:
        return
    kept = []
    for hint, changes in bed_fixes(board):
        fixed = {k: v for k, v in {**mapping, **changes}.items() if v is not None}
        try:
            model_params("giuthi-board", fixed, source)
        except ParameterError:
            continue
        kept.append(hint)
    raise ParameterError(f"{source}: {bed_refusal(board, kept, 'none that also holds the seeds')}") from None


def _sized(mapping: dict, source: str) -> dict:
    """A mapping's ``size_mm`` ("WxH" or [W, H]) turned into the pit sizes that fill that plan."""
    from printables.params.giuthi_board import params_for_size, parse_size

    size = mapping.pop("size_mm")
    if isinstance(size, (list, tuple)) and len(size) == 2:
        size = f"{size[0]}x{size[1]}"
    try:
        width, height = parse_size(size)
        return params_for_size(mapping, width, height)
    except ParameterError as error:
        raise ParameterError(f"{source}: {error}") from None


def capacity_shortfall(board: GiuthiBoardParams) -> str | None:
    """Why the designed pits or stores cannot hold what simulated games need, or None.

    The same sums the STL check makes on the mesh, made here on the design so that a user who
    asks for 9 seeds per pit on the default pits hears it before any modelling.
    """
    from printables.layout.giuthi_board import cavity_volume_mm3, pit_cavities, store_cavity
    from printables.params.giuthi_seeds import seed_volume_mm3
    from printables.rules.giuthi import required_pit_capacity, required_store_capacity

    seed = seed_volume_mm3(seed_params_for(board))
    pit = min(cavity_volume_mm3(c) for c in pit_cavities(board, "left"))
    store = cavity_volume_mm3(store_cavity(board, "left"))
    holds_pit = int(pit * board.packing_factor / seed + 1e-9)
    holds_store = int(store * board.packing_factor / seed + 1e-9)
    need_pit = required_pit_capacity(board.pits_per_row, board.seeds_per_pit)
    need_store = required_store_capacity(board.pits_per_row, board.seeds_per_pit)
    if holds_pit >= need_pit and holds_store >= need_store:
        return None
    what = "pits" if holds_pit < need_pit else "stores"
    held, needed = (holds_pit, need_pit) if what == "pits" else (holds_store, need_store)
    return (
        f"pits_per_row={board.pits_per_row}, seeds_per_pit={board.seeds_per_pit}: these {what} hold {held} seeds of {board.seed_diameter_mm:g} mm but "
        f"games with {board.seeds_per_pit} per pit on 2x{board.pits_per_row} need {needed} (99.9th percentile);"
        + CAPACITY_ADVICE
    )


def seed_params_for(board: GiuthiBoardParams):
    """The seed sprue that goes with a board: seeds of the size the board's pits are sized for."""
    from printables.params.giuthi_seeds import SeedParams

    return SeedParams(seed_diameter_mm=board.seed_diameter_mm, seed_height_mm=board.seed_height_mm)


# -- parts shared by the presets of one build ---------------------------------------------------
# Within one ``printables build`` several presets may ask for the same part (giuthi-ko has
# giuthi-default's board and sprue; giuthi-compact its sprue). Modelling is deterministic, so a
# part made once is copied byte for byte into the next set that asks for it. The key is everything
# that determines the files (the part's frozen parameters, or the digest of the mesh a 3MF or a
# preview is made from) within one build, whose code does not change; outside a build (tests,
# ``printables giuthi``) nothing is shared.
_SHARED: dict | None = None


@contextlib.contextmanager
def shared_parts():
    """Within the block, a part made before with the same key is copied, not made again."""
    global _SHARED
    outer = _SHARED
    if outer is None:
        _SHARED = {}
    try:
        yield
    finally:
        _SHARED = outer


def share_parts() -> None:
    """Share parts for the rest of this process (a build's worker process)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = {}


def _shared(key: tuple, out_dir: Path, make: Callable[[], list[Path]]) -> list[Path]:
    """``make()``'s files; when sharing and ``key`` was made before, copies of its files in ``out_dir``."""
    from printables.fileio import write_atomic

    if _SHARED is None:
        return make()
    files = _SHARED.get(key)
    if files is None:
        paths = make()
        _SHARED[key] = [(path.name, path.read_bytes()) for path in paths]
        return paths
    return [write_atomic(Path(out_dir) / name, data) for name, data in files]


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build_giuthi(
    board: GiuthiBoardParams,
    out_dir: Path,
    *,
    slice_parts: bool = True,
    previews: bool = True,
    progress: Progress = lambda message: None,
    paper: str = "a4",
    lang: str = "en",
) -> list[Path]:
    """Build the whole Giuthi set into ``out_dir``; returns every file written.

    ``paper`` is the size of the rules sheet (a4 or letter), ``lang`` the language of the rules
    sheet and the print card (the manifest and the card's subject record it).

    The set is made in a staging folder and replaces the folder's previous set as a whole only
    when every part of it exists (printables.fileio.replace_set), so a failure or an interruption
    part-way leaves the folder as it was.
    """
    from printables.fileio import replace_set

    return replace_set(out_dir, lambda staging: _build_giuthi_in(board, staging, slice_parts, previews, progress, paper, lang),
                       kind="giuthi", is_member=is_set_member, is_marker=is_set_manifest)


def is_set_manifest(name: str) -> bool:
    """Whether a file name is a set's manifest: moved in last and out first when a set is swapped file by file."""
    return name.startswith("giuthi-board-") and name.endswith(".json")


def is_set_member(name: str) -> bool:
    """Whether a file name belongs to a Giuthi set (what ``build_giuthi`` writes into its folder)."""
    from printables.check.slicer import PROFILE_FILE

    return name.startswith("giuthi-") or name == PROFILE_FILE


def write_rules_sheet(pits_per_row: int, seeds_per_pit: int, path: Path, paper: str = "a4", lang: str = "en") -> Path:
    """Lay out, render and atomically write the Giuthi rules sheet (diagrams from the rule core),
    in ``lang`` (the translation pass of printables/i18n, as for every sheet)."""
    from printables.fileio import write_atomic
    from printables.layout.language import drawing_in
    from printables.layout.translation import translate_document
    from printables.layout.giuthi_rules import rules_document
    from printables.render.pdf import render_pdf

    with drawing_in(lang) as paragraphs:
        document = rules_document(pits_per_row, seeds_per_pit, paper)
    return write_atomic(path, render_pdf(translate_document(document, lang, paragraphs)))


def write_3mfs(stls: list[Path], profile: Path) -> list[Path]:
    """A 3MF beside each STL: the same mesh, with the slicer profile inside for PrusaSlicer."""
    from printables.cad.threemf import export_3mf

    text = profile.read_text(encoding="utf-8")
    return [path for stl in stls for path in _shared(
        ("3mf", stl.name, _digest(stl), text), stl.parent, lambda: [export_3mf(stl, stl.with_suffix(".3mf"), text)])]


def _part_key(stl_name: str) -> str:
    """``left``, ``right`` or ``seeds`` for a part's file name."""
    for key in ("left", "right"):
        if stl_name.startswith(f"giuthi-board-{key}-"):
            return key
    return "seeds"


def seed_manifest(seeds, board: GiuthiBoardParams) -> dict:
    """The manifest's ``seeds`` entry: the sprue's file, the bean's size and how many prints the set needs."""
    from printables.params.giuthi_seeds import copies_needed, seed_count, seed_width_mm, stl_name

    per_print = seed_count(seeds)
    return {
        "file": stl_name(seeds),
        "size_mm": [seeds.seed_diameter_mm, seed_width_mm(seeds), seeds.seed_height_mm],
        "shape": "bean: half ellipsoid, flat side down",
        "per_print": per_print,
        "prints": copies_needed(board.pits_per_row, board.seeds_per_pit, per_print),
        "needed": 2 * board.pits_per_row * board.seeds_per_pit,
    }


def add_to_manifest(path: Path, entries: Mapping[str, Any]) -> Path:
    """Rewrite the board manifest with ``entries`` added (the printed matter written beside the STLs)."""
    import json

    from printables.fileio import write_atomic

    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(entries)
    return write_atomic(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def _build_giuthi_in(board: GiuthiBoardParams, out_dir: Path, slice_parts: bool, previews: bool,
                     progress: Progress, paper: str = "a4", lang: str = "en") -> list[Path]:
    from printables.isolation import isolate_ezdxf

    isolate_ezdxf()
    from printables.cad.giuthi_board import build_halves, manifest_name, write_board
    from printables.layout.giuthi_rules import RULES_FILE
    from printables.cad.giuthi_seeds import build_seeds
    from printables.check.slicer import PROFILE_FILE, is_slicer_available, slice_report, write_profile
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    progress("modelling the two board halves")
    written = _shared(("board", board), out_dir, lambda: write_board(board, build_halves(board), out_dir))
    progress("modelling the seed sprue")
    seeds = seed_params_for(board)
    written += _shared(("seeds", seeds), out_dir, lambda: build_seeds(seeds, out_dir))
    written.append(write_profile(out_dir / PROFILE_FILE))
    progress("writing the rules sheet")
    # The sheet depends on nothing but these four: presets that share them share its bytes.
    written += _shared(("rules", board.pits_per_row, board.seeds_per_pit, paper, lang), out_dir,
                       lambda: [write_rules_sheet(board.pits_per_row, board.seeds_per_pit, out_dir / RULES_FILE, paper, lang)])
    stls = [p for p in written if p.suffix == ".stl"]
    progress("writing a 3MF per part")
    threemfs = write_3mfs(stls, out_dir / PROFILE_FILE)
    written += threemfs
    add_to_manifest(out_dir / manifest_name(board), {
        "rules": {"file": RULES_FILE, "paper": paper, "lang": lang},
        "3mf": {_part_key(stl.name): f"{stl.stem}.3mf" for stl in stls},
        "seeds": seed_manifest(seeds, board),
    })
    estimates = {}
    if slice_parts and is_slicer_available():
        for stl in stls:
            progress(f"slicing {stl.name} with PrusaSlicer")
            estimates[stl.name] = slice_report(stl)
    card = giuthi_print_card(seeds, estimates, board=board)
    written.append(write_print_card(card, out_dir / PRINT_CARD_FILE, lang))
    # Last, the list of the whole set with each file's digest: `printables check` fails a folder
    # missing any of them or holding other bytes (a set swapped in part-way). Previews are left
    # out: they are pictures, rendered after this, and not checked.
    manifest = out_dir / manifest_name(board)
    add_to_manifest(manifest, {"files": {p.name: _digest(p) for p in sorted(written, key=lambda p: p.name)
                                         if p.name != manifest.name}})
    if previews:
        progress("rendering previews")
        written += render_previews(board, out_dir, stls)
    return written


IN_PLAY_SIZE_PX = (1200, 800)
IN_PLAY_VIEW_DEG = (-70.0, 40.0)  # azimuth, elevation: from South's side, low enough to see into the cups


def _cup_surface(c, top: float, x: float, y: float) -> tuple[float, tuple[float, float, float]]:
    """Height and upward normal of a cup's inside at (x, y): its flat floor, or the quarter circle
    of ``c.radius`` rising from the floor's edge (a stadium inset by the radius) to the wall."""
    half = max(0.0, (c.length - c.width) / 2)  # the floor is the points within ``flat`` of this segment
    flat = c.width / 2 - c.radius
    dy = y - c.cy - min(half, max(-half, y - c.cy))
    dx = x - c.cx
    out = math.hypot(dx, dy) - flat
    floor = top - c.depth
    if out <= 0:
        return floor, (0.0, 0.0, 1.0)
    out = min(out, 0.95 * c.radius)  # never up onto the vertical wall
    rise = math.sqrt(c.radius ** 2 - out ** 2)
    ux, uy = dx / math.hypot(dx, dy), dy / math.hypot(dx, dy)
    return floor + c.radius - rise, (-out * ux, -out * uy, rise)


def in_play_parts(board: GiuthiBoardParams, left, right) -> list:
    """The board open on the table as a game starts: both halves (meshes as printed) and
    ``seeds_per_pit`` beans of the seed model's size in every pit, lying on the cup's floor or,
    in a bowl with little floor, tilted up its rounded wall."""
    from printables.layout.giuthi_board import half_layout
    from printables.params.giuthi_seeds import seed_width_mm
    from printables.render.preview import SEED_RGB, PreviewPart, bean_mesh, beans_in_cup, resting_on

    seeds = seed_params_for(board)
    width = seed_width_mm(seeds)
    bean = bean_mesh(seeds.seed_diameter_mm, width, seeds.seed_height_mm)
    parts = []
    for side, half in (("left", left), ("right", right)):
        parts.append(PreviewPart(half))
        lay = half_layout(board, side)
        top = lay.outline.z1
        for pit in lay.pits:
            for placed in beans_in_cup(pit.cx, pit.cy, top - pit.depth, board.seeds_per_pit, seeds.seed_diameter_mm,
                                       turn=pit.index, bean_width_mm=width):
                z, normal = _cup_surface(pit, top, placed[0, 3], placed[1, 3])
                if normal != (0.0, 0.0, 1.0):
                    placed = resting_on(placed, z, normal)
                parts.append(PreviewPart(bean, placed, SEED_RGB))
    return parts


def render_in_play(board: GiuthiBoardParams, left, right, out_path: Path) -> Path:
    """The picture of the board in play (``in_play_parts``) as a PNG at ``out_path``."""
    from printables.render.preview import render_parts

    return render_parts(in_play_parts(board, left, right), out_path, size_px=IN_PLAY_SIZE_PX,
                        view_deg=IN_PLAY_VIEW_DEG)


def render_previews(board: GiuthiBoardParams, out_dir: Path, stls: list[Path]) -> list[Path]:
    """PNG previews: each part as printed, the board open flat and folded shut, and the board in
    play (open, the beans in the pits as a game starts)."""
    import trimesh

    from printables.layout.giuthi_board import half_layout
    from printables.render.preview import PreviewPart, render_parts, rotation_about_axis

    meshes: dict[Path, trimesh.Trimesh] = {}

    def mesh(path: Path) -> trimesh.Trimesh:
        """Each STL read once for all the pictures it is in (rendering never changes a mesh)."""
        if path not in meshes:
            meshes[path] = trimesh.load_mesh(path, file_type="stl")
        return meshes[path]

    written = []
    for stl in stls:
        colour = SEED_RGB if stl.name.startswith("giuthi-seeds") else None
        part = (lambda stl=stl, colour=colour: PreviewPart(mesh(stl), None, colour) if colour else PreviewPart(mesh(stl)))
        written += _shared(("preview", stl.name, _digest(stl), colour), out_dir,
                           lambda: [render_parts([part()], out_dir / f"{stl.stem}.png")])
    left_stl = out_dir / f"{board.part_name('left')}.stl"
    right_stl = out_dir / f"{board.part_name('right')}.stl"

    def open_and_folded() -> list[Path]:
        left, right = mesh(left_stl), mesh(right_stl)
        stem = f"giuthi-board-{board.stem()}"
        lay = half_layout(board, "right")
        folded = rotation_about_axis((lay.axis_x, 0.0, lay.axis_z), (0.0, 1.0, 0.0), 180.0)
        return [render_parts([PreviewPart(left), PreviewPart(right)], out_dir / f"{stem}-open.png"),
                render_parts([PreviewPart(left), PreviewPart(right, folded)], out_dir / f"{stem}-folded.png"),
                render_in_play(board, left, right, out_dir / f"{stem}-in-play.png")]

    return written + _shared(("previews", board, _digest(left_stl), _digest(right_stl)), out_dir, open_and_folded)
