"""Pentominoes: orientations and placements, each checked against a derivation written here."""

import pytest

from printables.rules import pentominoes as P

# The 12 free pentominoes drawn by hand, independently of the module's own table.
DRAWN = {
    "F": [".##", "##.", ".#."],
    "I": ["#", "#", "#", "#", "#"],
    "L": ["####", "#..."],
    "N": [".#", "##", "#.", "#."],
    "P": ["###", "##."],
    "T": ["#..", "###", "#.."],
    "U": ["##", "#.", "##"],
    "V": ["###", "..#", "..#"],
    "W": [".##", "##.", "#.."],
    "X": [".#.", "###", ".#."],
    "Y": ["####", ".#.."],
    "Z": ["#..", "###", "..#"],
}


def rotate_rows(rows):
    """Rotate a picture a quarter turn clockwise, on the strings themselves."""
    return ["".join(rows[len(rows) - 1 - r][c] for r in range(len(rows))) for c in range(len(rows[0]))]


def mirror_rows(rows):
    return [row[::-1] for row in rows]


def orientations_by_strings(rows):
    seen = set()
    for picture in (rows, mirror_rows(rows)):
        for _ in range(4):
            picture = rotate_rows(picture)
            seen.add("\n".join(picture))
    return seen


EXPECTED_COUNTS = {"F": 8, "L": 8, "N": 8, "P": 8, "Y": 8, "T": 4, "U": 4, "V": 4, "W": 4, "Z": 4, "I": 2, "X": 1}


def test_orientation_counts_match_the_rules_file_and_a_string_derivation():
    for letter, rows in DRAWN.items():
        assert len(orientations_by_strings(rows)) == EXPECTED_COUNTS[letter]
        assert len(P.ORIENTATIONS[letter]) == EXPECTED_COUNTS[letter]
    assert sum(len(o) for o in P.ORIENTATIONS.values()) == 63


def test_orientations_are_exactly_the_rotations_and_reflections_of_the_drawn_piece():
    for letter, rows in DRAWN.items():
        assert {P.picture(s) for s in P.ORIENTATIONS[letter]} == orientations_by_strings(rows)


def test_every_orientation_identifies_as_its_letter_and_nothing_else_does():
    for letter, shapes in P.ORIENTATIONS.items():
        for shape in shapes:
            assert P.identify(shape) == letter
    assert P.identify(P.shape_from_picture(["##", "##"])) is None  # tetromino
    assert P.identify(P.shape_from_picture(["##.##", "....."])) is None  # 4 cells
    assert P.identify(P.shape_from_picture(["###.#"])) is None  # 4 cells, disconnected
    assert P.identify(P.shape_from_picture(["##", "##", ".#", ".#"])) is None  # 6 cells


def test_plus_is_an_alias_of_x_and_bad_letters_are_refused():
    assert P.parse_letter("+") == "X"
    assert P.parse_letter("x") == "X"
    assert P.parse_letter(" f ") == "F"
    with pytest.raises(P.UnknownPentomino, match="'Q'"):
        P.parse_letter("Q")


def naive_placements(rows, width, height):
    """Slide every string-derived orientation over the grid and count the fits, cell by cell."""
    count = 0
    for picture in orientations_by_strings(rows):
        lines = picture.split("\n")
        cells = [(x, y) for y, line in enumerate(lines) for x, ch in enumerate(line) if ch == "#"]
        for oy in range(height):
            for ox in range(width):
                if all(0 <= ox + x < width and 0 <= oy + y < height for x, y in cells):
                    count += 1
    return count


@pytest.mark.parametrize("grid", [(10, 10), (3, 5), (5, 3), (7, 4), (1, 5), (20, 3), (6, 6)])
def test_placements_on_empty_grids_match_a_naive_count(grid):
    width, height = grid
    for letter, rows in DRAWN.items():
        assert len(P.placements(letter, width, height)) == naive_placements(rows, width, height), letter


def test_placement_counts_by_hand():
    # I on 10x10: 6 horizontal positions in each of 10 rows, twice (vertical too).
    assert len(P.placements("I", 10, 10)) == 2 * 6 * 10
    # X on 3x3: exactly one place, the centre.
    assert len(P.placements("X", 3, 3)) == 1
    # I on a 5x1 strip: one horizontal placement only.
    assert len(P.placements("I", 5, 1)) == 1
    # Nothing but I fits a strip one cell wide.
    assert [l for l in P.LETTERS if P.placements(l, 9, 1)] == ["I"]


def test_placements_are_distinct_and_inside_the_grid():
    for letter in P.LETTERS:
        masks = P.placements(letter, 7, 6)
        assert len(set(masks)) == len(masks)
        for mask in masks:
            cells = P.mask_cells(mask, 7)
            assert len(cells) == 5 and all(0 <= x < 7 and 0 <= y < 6 for x, y in cells)
            assert P.identify(cells) == letter


def test_picture_round_trip_and_canonical_form():
    for letter, shape in P.PENTOMINOES.items():
        assert P.shape_from_picture(P.picture(shape).split("\n")) == shape
        assert all(P.canonical(s) == P.canonical(shape) for s in P.ORIENTATIONS[letter])
