"""Draw the README's picture of the Giuthi board in play: the default board open on the table,
four beans in each pit as at the start of a game.

    python docs/giuthi_in_play.py [OUT.png]

The halves are the default board's, built with cadquery as ``printables giuthi`` builds them; the
beans are the seed model's (half ellipsoids of the sprue's size), laid on each cup's floor where
the layout puts the pits. Writes docs/giuthi-in-play.png unless told otherwise; the same code gives
the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import trimesh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printables.cad import giuthi_board as cad  # noqa: E402
from printables.layout.giuthi_board import half_layout  # noqa: E402
from printables.models import seed_params_for  # noqa: E402
from printables.params.giuthi_board import GiuthiBoardParams  # noqa: E402
from printables.params.giuthi_seeds import seed_width_mm  # noqa: E402
from printables.render.preview import SEED_RGB, PreviewPart, bean_mesh, beans_in_cup, render_parts  # noqa: E402

OUT = ROOT / "docs" / "giuthi-in-play.png"


def in_play_parts(board: GiuthiBoardParams) -> list[PreviewPart]:
    """Both halves open, and ``seeds_per_pit`` beans on the floor of every pit."""
    seeds = seed_params_for(board)
    bean = bean_mesh(seeds.seed_diameter_mm, seed_width_mm(seeds), seeds.seed_height_mm)
    parts = []
    for side in ("left", "right"):
        vertices, faces = cad.mesh_arrays(cad.build_half(board, side))
        parts.append(PreviewPart(trimesh.Trimesh(vertices, faces, process=False)))
        lay = half_layout(board, side)
        floor = lay.outline.z1 - board.pit_depth_mm
        for pit in lay.pits:
            parts += [PreviewPart(bean, placed, SEED_RGB)
                      for placed in beans_in_cup(pit.cx, pit.cy, floor, board.seeds_per_pit, seeds.seed_diameter_mm,
                                                 turn=pit.index)]
    return parts


def main(out: Path = OUT) -> Path:
    """Render the default board in play into ``out``."""
    return render_parts(in_play_parts(GiuthiBoardParams()), out, size_px=(1200, 800), view_deg=(-70.0, 40.0))


if __name__ == "__main__":
    print(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
