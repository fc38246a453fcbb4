"""Pieces of the seed sprue's measure (printables/check/giuthi_seeds.py) against their definitions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage

from printables.check.giuthi_seeds import BESIDE_PX, OWNER_PX, _centres, _near_seeds


def _seed_map(gap: int) -> np.ndarray:
    """Three seeds: two discs ``gap`` pixels apart (edge to edge) and a ring round nothing."""
    rr, cc = np.mgrid[0:120, 0:200]
    seed_of = np.full(rr.shape, -1)
    seed_of[(rr - 40) ** 2 + (cc - 40) ** 2 <= 25**2] = 0
    seed_of[(rr - 40) ** 2 + (cc - (40 + 50 + gap)) ** 2 <= 25**2] = 1
    ring = (rr - 95) ** 2 + (cc - 150) ** 2
    seed_of[(ring <= 20**2) & (ring >= 12**2)] = 2
    return seed_of


@pytest.mark.parametrize("gap", [30, 9, 8, 5, 1])
def test_owner_and_beside_are_those_of_the_nearest_seed_pixel(gap):
    # 8 pixels or fewer apart, the grown seeds meet: the distance transform decides.
    seed_of = _seed_map(gap)
    to_seed, (r, c) = ndimage.distance_transform_edt(seed_of < 0, return_indices=True)
    owner, beside = _near_seeds(seed_of, 3)
    assert np.array_equal(owner, np.where(to_seed <= OWNER_PX, seed_of[r, c], -1))
    assert np.array_equal(beside, to_seed <= BESIDE_PX)
    assert (owner == 2).sum() > (seed_of == 2).sum()  # grown into the ring's hole and round it


def test_centres_are_ndimage_s_centres_of_mass():
    labels, n = ndimage.label(_seed_map(12) >= 0)
    ids = list(range(1, n + 1))
    assert _centres(labels, ids) == [tuple(map(float, c)) for c in ndimage.center_of_mass(labels > 0, labels, ids)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_grown_core_is_the_whole_raster_transform_s(seed):
    from printables.check.giuthi_seeds import _grown

    rng = np.random.default_rng(seed)
    core = np.zeros((150, 220), dtype=bool)
    for _ in range(6):  # blobs, some cut by the raster's edge, some close enough to share grown pixels
        r, c, size = rng.integers(0, 150), rng.integers(0, 220), rng.integers(2, 30)
        core[max(r - size, 0):r + size, max(c - size // 2, 0):c + size] = True
    reach, px = 0.4125, 0.025  # 16.5 pixels
    assert np.array_equal(_grown(core, reach, px), ndimage.distance_transform_edt(~core) * px <= reach)
    empty = np.zeros_like(core)
    assert np.array_equal(_grown(empty, reach, px), ndimage.distance_transform_edt(~empty) * px <= reach)



def test_squared_distances_are_those_under_ndimage_s_distances():
    from printables.check.giuthi_seeds import _squared_distances

    rng = np.random.default_rng(4)
    mask = ndimage.binary_opening(rng.random((140, 230)) < 0.8, iterations=2)
    mask[:, :3] = True  # reaching the raster's edge
    assert np.array_equal(np.sqrt(_squared_distances(mask)), ndimage.distance_transform_edt(mask))


def _bisected(edt_mm, local, seed_a, seed_b, px):
    """The gate measure with every erosion labelled (no shortcut)."""
    from printables.params.giuthi_seeds import MAX_GATE_WIDTH_MM

    deep_a = np.unravel_index(np.argmax(np.where(seed_a, edt_mm, -1)), edt_mm.shape)
    deep_b = np.unravel_index(np.argmax(np.where(seed_b, edt_mm, -1)), edt_mm.shape)

    def joined(r):
        labels, _ = ndimage.label(local & (edt_mm > r))
        return bool(labels[deep_a]) and labels[deep_a] == labels[deep_b]

    lo, hi = 0.0, MAX_GATE_WIDTH_MM
    if not joined(lo):
        return 0.0
    while hi - lo > px / 64:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if joined(mid) else (lo, mid)
    return 2 * lo - px / 2


@pytest.mark.parametrize("neck, middle", [(36, 48), (48, 36), (40, 40), (0, 40)])
def test_gate_widths_skip_only_erosions_that_cannot_join(neck, middle):
    from printables.check.giuthi_seeds import _gate_widths

    px = 0.025
    rr, cc = np.mgrid[0:400, 0:900]
    seed_a = (rr - 200) ** 2 + (cc - 200) ** 2 <= 150**2
    seed_b = (rr - 200) ** 2 + (cc - 700) ** 2 <= 150**2
    # A gate from x 340 to 560: ``neck`` pixels wide where it meets each seed, ``middle`` between.
    half = np.where((cc < 380) | (cc > 520), neck / 2, middle / 2)
    gate = (cc > 340) & (cc < 560) & (np.abs(rr - 200) < half) & ~seed_a & ~seed_b
    local = seed_a | seed_b | gate
    edt_mm = ndimage.distance_transform_edt(local) * px
    narrowest, _, _ = _gate_widths(edt_mm, local, seed_a, seed_b, px)
    assert narrowest == _bisected(edt_mm, local, seed_a, seed_b, px)
    assert (narrowest == 0.0) == (neck == 0)


@pytest.mark.parametrize("seed", [5, 6])
def test_edt_is_ndimage_s_bit_for_bit(seed):
    from printables.check.giuthi_seeds import edt

    rng = np.random.default_rng(seed)
    mask = ndimage.binary_opening(rng.random((170, 260)) < 0.85, iterations=3)
    mask[:, -2:] = True  # reaching the raster's edge
    assert np.array_equal(edt(mask), ndimage.distance_transform_edt(mask))
    assert np.array_equal(edt(np.ones((7, 9), dtype=bool)), ndimage.distance_transform_edt(np.ones((7, 9), dtype=bool)))


def test_section_mask_counts_crossings_even_odd():
    """A square ring's section (a box with a box-shaped hole), rasterised: pixel centres inside the
    outer square and outside the hole, whatever the grid's phase."""
    import trimesh

    from printables.check.giuthi_seeds import _Grid, section_mask

    outer = trimesh.creation.box((4.0, 3.0, 2.0))
    hole = trimesh.creation.box((2.0, 1.0, 2.0))
    hole.invert()
    ring = trimesh.util.concatenate([outer, hole])
    for x0, y0 in ((-2.5, -2.0), (-2.537, -2.011)):
        grid = _Grid(x0, y0, 0.1, 40, 50)
        mask = section_mask(ring, 0.3, grid)
        x, y = np.meshgrid(grid.x0 + (np.arange(grid.cols) + 0.5) * grid.px, grid.y0 + (np.arange(grid.rows) + 0.5) * grid.px)
        expected = (np.abs(x) < 2) & (np.abs(y) < 1.5) & ~((np.abs(x) < 1) & (np.abs(y) < 0.5))
        assert mask.sum() == expected.sum() > 0
        assert np.array_equal(mask, expected)


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_dilations_are_ndimage_s(seed):
    from printables.check.giuthi_seeds import _dilated, _dilated_in_box

    rng = np.random.default_rng(seed)
    mask = rng.random((60, 90)) < 0.01
    mask[0, 5] = mask[-1, -1] = True  # at the edges
    assert np.array_equal(_dilated(mask), ndimage.binary_dilation(mask))
    for iterations in (1, 3, 4):
        assert np.array_equal(_dilated_in_box(mask, iterations), ndimage.binary_dilation(mask, iterations=iterations))
    blob = np.zeros((60, 90), dtype=bool)
    blob[20:24, 40:47] = True
    assert np.array_equal(_dilated_in_box(blob, 3), ndimage.binary_dilation(blob, iterations=3))
    empty = np.zeros((5, 6), dtype=bool)
    assert not _dilated_in_box(empty, 3).any() and not _dilated(empty).any()
