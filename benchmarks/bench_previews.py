"""Print the CPU time of the Giuthi preview PNGs: each preset's previews and each picture.

Run: python benchmarks/bench_previews.py [--rounds 3] [--baseline OTHER_SOURCE_TREE] [--models DIR]

Renders the previews of the five Giuthi presets a build renders (compact, default, 2x8, 9seeds,
travel; giuthi-ko copies giuthi-default's) as a build's worker does (``render_previews`` with parts
shared, in the build's order, from STLs made without previews), in a fresh process per round, and
prints each preset's CPU time, the five's total, the slowest pictures and the PNGs' total size.
The STLs are made first (CadQuery, ~25 s CPU) unless ``--models DIR`` holds them from an earlier
run (the folder is made and filled when missing). ``--baseline DIR`` renders the same STLs with
another source tree (e.g. ``git archive main | tar -x -C /tmp/base``), interleaved round by round
with this one so both see the same load, and says whether the two trees' PNGs are the same bytes
and how far apart their pixels are. The load average is printed with each round.

Figures (issue 14, --rounds 3, load 1.2-1.3, baseline main 07c4fdb): this tree best 1.52 s,
median 1.65 s (about 0.06 s a picture; PNGs 1.91 MB in all); baseline best 4.63 s, median 4.75 s
(PNGs 2.15 MB). The pictures differ from the baseline's only where the 2 x 2 mean and the former
Lanczos filter shrink edges differently: mean difference at most 0.60 of 255 per picture, at most
0.85 % of pixels more than 16 levels apart (the outlines), largest 63.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ("compact", "default", "2x8", "9seeds", "travel")  # the build's order, less giuthi-ko

# Run in ROOT: the STLs of each preset, made as a build's worker 0 makes them (no previews).
MAKE = """
import json, sys
from pathlib import Path
from printables.build import make_preset
from printables.models import share_parts
from printables.params.base import load_preset

share_parts()
out = Path(sys.argv[1])
order = {}
for name in sys.argv[2:]:
    made = make_preset(load_preset(Path(f"models/giuthi-{name}.toml")), out, slicer=False, previews=False)
    order[name] = [str(p.relative_to(out)) for p in made.paths if p.suffix == ".stl"]
(out / "stls.json").write_text(json.dumps(order))
"""

# Run in the tree under test: a build worker's preview tasks, timed (CPU of this process).
RENDER = """
import json, shutil, sys, time
from pathlib import Path
import printables.render.preview as preview
from printables.models import model_params, render_previews, share_parts
from printables.params.base import load_preset

share_parts()  # as every build worker does: a picture two presets share is rendered once
models, out = Path(sys.argv[1]), Path(sys.argv[2])
order = json.loads((models / "stls.json").read_text())
pictures = []
render_parts = preview.render_parts

def timed(parts, out_path, *args, **kwargs):
    start = time.process_time()
    path = render_parts(parts, out_path, *args, **kwargs)
    pictures.append((Path(out_path).name, time.process_time() - start))
    return path

preview.render_parts = timed
presets = {}
for name in sys.argv[3:]:
    preset = load_preset(Path(f"models/giuthi-{name}.toml"))
    folder = out / name
    folder.mkdir(parents=True)
    stls = [Path(shutil.copy(models / stl, folder)) for stl in order[name]]
    start = time.process_time()
    board = model_params(preset.kind, preset.params, "bench")
    paths = render_previews(board, folder, stls)
    presets[name] = {"cpu": time.process_time() - start, "pngs": [str(p.relative_to(out)) for p in paths]}
print(json.dumps({"presets": presets, "pictures": pictures}))
"""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(tree: Path, code: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{tree}: failed ({done.returncode}):\n{done.stderr}")
    return (done.stdout.strip().splitlines() or [""])[-1]


def compare(ours: Path, theirs: Path, pngs: list[str]) -> str:
    """Whether two trees drew the same PNGs: same bytes, or the largest and mean pixel difference."""
    import numpy as np
    from PIL import Image

    same, worst, mean, differ = 0, 0, 0.0, 0
    for name in pngs:
        a, b = (ours / name).read_bytes(), (theirs / name).read_bytes()
        if a == b:
            same += 1
            continue
        pa = np.asarray(Image.open(ours / name).convert("RGB"), dtype=np.int16)
        pb = np.asarray(Image.open(theirs / name).convert("RGB"), dtype=np.int16)
        if pa.shape != pb.shape:
            return f"{name}: sizes differ, {pa.shape} and {pb.shape}"
        d = np.abs(pa - pb).max(axis=-1)
        worst, mean = max(worst, int(d.max())), max(mean, float(d.mean()))
        differ = max(differ, float((d > 16).mean()))
    text = f"{same} of {len(pngs)} PNGs the same bytes"
    if same < len(pngs):
        text += (f"; the others: largest pixel difference {worst} of 255, mean at most {mean:.2f},"
                 f" at most {differ:.2%} of pixels more than 16 apart")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per tree [3]")
    parser.add_argument("--baseline", type=Path, help="another source tree, timed interleaved with this one")
    parser.add_argument("--models", type=Path, help="folder for the STLs, kept between runs (made when missing)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        models = args.models or Path(tmp) / "models"
        if not (models / "stls.json").exists():
            print(f"making the STLs of giuthi-{', '.join(PRESETS)} into {models} ...", flush=True)
            models.mkdir(parents=True, exist_ok=True)
            run(ROOT, MAKE, models, *PRESETS)
        trees = [("this tree", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
        totals: dict[str, list[float]] = {label: [] for label, _ in trees}
        pictures: dict[str, dict[str, list[float]]] = {label: {} for label, _ in trees}
        print(f"previews of giuthi-{', '.join(PRESETS)}: CPU s per preset (render_previews in one process)")
        for round_ in range(1, args.rounds + 1):
            outs = {}
            for label, tree in trees:
                out = Path(tmp) / f"round{round_}-{label.replace(' ', '-')}"
                result = json.loads(run(tree, RENDER, models, out, *PRESETS))
                outs[label] = (out, [png for p in result["presets"].values() for png in p["pngs"]])
                total = sum(p["cpu"] for p in result["presets"].values())
                totals[label].append(total)
                for name, cpu in result["pictures"]:
                    pictures[label].setdefault(name, []).append(cpu)
                size = sum((out / png).stat().st_size for png in outs[label][1])
                shares = " ".join(f"{name} {p['cpu']:.2f}" for name, p in result["presets"].items())
                print(f"  round {round_} {label:9s}: {total:5.2f} s  ({shares}; "
                      f"{len(result['pictures'])} pictures, PNGs {size / 1e6:.2f} MB; load {load()})", flush=True)
            if args.baseline:
                (ours, pngs), (theirs, _) = outs["this tree"], outs["baseline"]
                print(f"    {compare(ours, theirs, pngs)}")
        for label, values in totals.items():
            slowest = sorted(pictures[label].items(), key=lambda item: -statistics.median(item[1]))[:3]
            per = ", ".join(f"{name} {statistics.median(v):.3f}" for name, v in slowest)
            print(f"{label:9s}: best {min(values):.2f} s, median {statistics.median(values):.2f} s over"
                  f" {len(values)} rounds; slowest pictures (median s): {per}")


if __name__ == "__main__":
    main()
