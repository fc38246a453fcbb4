"""Draw the README's picture of the Giuthi board in play: the default board open on the table,
four beans in each pit as at the start of a game.

    python docs/giuthi_in_play.py [OUT.png]

The halves are the default board's, built with cadquery as ``printables giuthi`` builds them; the
picture is the set's own in-play preview (``printables.models.render_in_play``): the seed model's
beans (half ellipsoids of the sprue's size) laid on each cup's floor where the layout puts the
pits. Writes docs/giuthi-in-play.png unless told otherwise; the same code gives the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import trimesh

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printables.cad import giuthi_board as cad  # noqa: E402
from printables.models import render_in_play  # noqa: E402
from printables.params.giuthi_board import GiuthiBoardParams  # noqa: E402

OUT = ROOT / "docs" / "giuthi-in-play.png"


def main(out: Path = OUT) -> Path:
    """Render the default board in play into ``out``."""
    board = GiuthiBoardParams()
    left, right = (trimesh.Trimesh(*cad.mesh_arrays(cad.build_half(board, side)), process=False)
                   for side in ("left", "right"))
    return render_in_play(board, left, right, out)


if __name__ == "__main__":
    print(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
