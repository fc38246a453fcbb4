"""Write the stored orientations of the Patchwork patches (printables/rules/patchwork_orientations.py).

Run: python tools/patchwork_orientations.py   (after the patches' shapes or ``orientations_of``
change; tests/test_patchwork_rules.py says when)

For the shape of every patch it stores each distinct rotation and reflection as
``orientations_of`` makes it: its cells in the very order ``normalise_shape`` inserts them, so the
frozensets rebuilt from them are the same ones, iteration order included (checked here and in the
test). Importing the rules then builds the 33 patches without turning and flipping each one.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from printables.rules import patchwork as rules  # noqa: E402

TARGET = ROOT / "printables" / "rules" / "patchwork_orientations.py"

HEADER = '''"""The orientations of the Patchwork patches, as ``rules.patchwork.orientations_of`` makes them.

Written by tools/patchwork_orientations.py; do not edit. A printed shape (its cells in the order the
shape's frozenset gives them) -> each distinct rotation and reflection, its cells in the order
``normalise_shape`` inserts them, so that ``frozenset`` of them is the very set ``orientations_of``
makes, iteration order included.
"""

ORIENTATIONS = {
'''


def insertion_orders(cells) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``orientations_of(cells)``, each orientation as the cells in the order they are inserted."""

    def normalise(shape):  # normalise_shape, recording the order it inserts the cells
        shape = tuple(shape)
        r0 = min(r for r, _ in shape)
        c0 = min(c for _, c in shape)
        order = tuple((r - r0, c - c0) for r, c in shape)
        return frozenset(order), order

    base, _ = normalise(cells)
    made = []
    for mirrored in (False, True):  # rules.patchwork._transforms
        current = frozenset((r, -c) for r, c in base) if mirrored else base
        for _ in range(4):
            made.append(normalise(current))
            current = frozenset((c, -r) for r, c in current)
    seen, kept = [], []
    for shape, order in made:
        if shape not in seen:
            seen.append(shape)
            kept.append(order)
    return tuple(kept)


def table_text() -> str:
    """The module's text for the current patches."""
    lines = [HEADER]
    done = set()
    for patch in rules.PATCHES:
        key = tuple(patch.shape)
        if key in done:
            continue
        done.add(key)
        orders = insertion_orders(patch.shape)
        made = [frozenset(order) for order in orders]
        expected = rules.orientations_of(patch.shape)
        if made != list(expected) or [list(s) for s in made] != [list(s) for s in expected]:
            raise SystemExit(f"patch {patch.id}: the recorded orientations are not orientations_of's")
        lines.append(f"    {key!r}: {orders!r},\n")
    lines.append("}\n")
    return "".join(lines)


def main() -> None:
    TARGET.write_text(table_text(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
