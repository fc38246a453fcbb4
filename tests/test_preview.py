"""The preview renderer (printables/render/preview.py): the z-buffer against a brute-force one, the
picture against the former renderer's, the same bytes for the same inputs."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image

from printables.render import preview
from printables.render.preview import SEED_RGB, PreviewPart, render_parts, rotation_about_axis

DATA = Path(__file__).parent / "data"


def _scene() -> list[PreviewPart]:
    """A ball over a plate and a tilted bar through the plate: curved, flat, hidden and cut faces."""
    plate = trimesh.creation.box((40.0, 30.0, 4.0))
    plate.apply_translation((0.0, 0.0, 2.0))
    ball = trimesh.creation.icosphere(subdivisions=3, radius=8.0)
    ball.apply_translation((-6.0, 2.0, 12.0))
    bar = trimesh.creation.box((36.0, 4.0, 4.0))
    tilt = rotation_about_axis((0.0, 0.0, 6.0), (0.0, 1.0, 0.0), 20.0)
    tilt[:3, 3] += (4.0, -6.0, 0.0)
    return [PreviewPart(plate), PreviewPart(ball, None, SEED_RGB), PreviewPart(bar, tilt, (90, 120, 200))]


def _pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.int16)


def test_the_same_inputs_give_the_same_png_bytes(tmp_path):
    first = render_parts(_scene(), tmp_path / "a.png", size_px=(240, 180)).read_bytes()
    # Another picture in between (other sizes, other buffers) changes nothing.
    render_parts([PreviewPart(trimesh.creation.icosphere())], tmp_path / "b.png", size_px=(100, 70))
    again = render_parts(_scene(), tmp_path / "c.png", size_px=(240, 180)).read_bytes()
    assert first == again
    assert first.startswith(b"\x89PNG")
    # And in a fresh process (other memory, nothing cached).
    import os
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, sys.argv[1]); from test_preview import _scene;"
            "from printables.render.preview import render_parts;"
            "render_parts(_scene(), sys.argv[2], size_px=(240, 180))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), str(tmp_path / "d.png")], check=True, env=env)
    assert (tmp_path / "d.png").read_bytes() == first


def _like_before(now: np.ndarray, before: np.ndarray) -> None:
    """Assert that two pictures of the scene look the same: a few levels apart at edges at most."""
    assert now.shape == before.shape == (180, 240, 3)
    apart = np.abs(now - before).max(axis=-1)
    assert apart.mean() < 2.0, apart.mean()
    assert (apart > 24).mean() < 0.02, (apart > 24).mean()
    # The same things in the same places: each part's colour covers the same pixels, give or take
    # the pixels on their borders.
    for colour in (SEED_RGB, (90, 120, 200)):
        def near(p, colour=colour):
            hue = p / np.maximum(p.sum(axis=-1, keepdims=True), 1)
            want = np.asarray(colour) / sum(colour)
            return (np.abs(hue - want).max(axis=-1) < 0.03) & (p.sum(axis=-1) > 60)

        a, b = near(now), near(before)
        assert b.sum() > 500
        assert (a != b).sum() < 0.05 * b.sum(), ((a != b).sum(), b.sum())
    # The background where it was (the Lanczos filter's faint ringing beside edges aside).
    drawn = (before < 230).any(axis=-1)
    assert drawn.mean() > 0.3
    assert ((now < 230).any(axis=-1) != drawn).mean() < 0.01


def test_the_picture_is_the_former_renderers_within_a_few_levels(tmp_path):
    """tests/data/preview-lanczos-2026.png is this scene drawn by the renderer before the speed-up
    (commit 07c4fdb: whole picture, float64 depth, Lanczos shrink, zlib level 6). Now the samples
    are shrunk by a plain 2 x 2 mean: edges differ by a few levels, the rest not at all."""
    before = _pixels((DATA / "preview-lanczos-2026.png").read_bytes())
    _like_before(_pixels(render_parts(_scene(), tmp_path / "now.png", size_px=(240, 180)).read_bytes()), before)
    # The comparison tells a different picture: the ball left out, or the bar in the wrong colour.
    scene = _scene()
    for wrong in (scene[::2], [scene[0], scene[1], PreviewPart(scene[2].mesh, scene[2].transform)]):
        with pytest.raises(AssertionError):
            _like_before(_pixels(render_parts(wrong, tmp_path / "wrong.png", size_px=(240, 180)).read_bytes()), before)


def _brute_force(screen: np.ndarray, depth: np.ndarray, box, eps: float):
    """Nearest depth at each pixel centre of ``box`` over every triangle whose inside, grown by
    ``eps`` px (shrunk when negative), holds the centre; -inf where none does."""
    x0, y0, x1, y1 = box
    cx, cy = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
    px, py = cx.ravel()[:, None], cy.ravel()[:, None]
    a, b, c = screen[:, 0], screen[:, 1], screen[:, 2]
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])
    sign = np.sign(area)
    inside = area != 0
    weights = []
    for p, q in ((b, c), (c, a), (a, b)):
        # Signed distance of the centre from edge p-q, positive inside.
        w = ((q[:, 0] - p[:, 0]) * (py - p[:, 1]) - (q[:, 1] - p[:, 1]) * (px - p[:, 0])) * sign
        length = np.hypot(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1])
        inside = inside & (w / np.where(length == 0, 1, length) >= -eps)
        weights.append(w / np.where(area == 0, 1, np.abs(area)))
    z = weights[0] * depth[:, 0] + weights[1] * depth[:, 1] + weights[2] * depth[:, 2]
    return np.where(inside, z, -np.inf).max(axis=1).reshape(y1 - y0, x1 - x0)


@pytest.mark.parametrize("view", [(-60.0, 35.0), (20.0, 70.0), (-90.0, 89.0)])
def test_each_pixel_shows_the_nearest_triangle_over_its_centre(view):
    """The scanline z-buffer against a brute-force one (every triangle tested at every centre)."""
    size = (60, 40)
    width, height = size[0] * preview.SUPERSAMPLE, size[1] * preview.SUPERSAMPLE
    tris, normals, _ = preview._scene(_scene())
    right, up, toward = preview._view_basis(*view)
    facing = normals @ toward > 1e-9
    tris = tris[facing]
    sx, sy, depth = tris @ right, tris @ up, tris @ toward
    scale = min(width * 0.88 / np.ptp(sx), height * 0.88 / np.ptp(sy))
    screen = np.stack([width / 2 + (sx - sx.mean()) * scale, height / 2 - (sy - sy.mean()) * scale], axis=-1)
    box = (0, 0, width, height)
    fbuf = preview._rasterise(screen, depth, box)
    assert fbuf.shape == (height, width)
    covered = fbuf < len(tris)
    surely_in = _brute_force(screen, depth, box, -1e-6) > -np.inf
    maybe_in = _brute_force(screen, depth, box, 1e-6) > -np.inf
    assert surely_in.sum() > 0.2 * surely_in.size
    assert (covered >= surely_in).all() and (covered <= maybe_in).all()
    # The face drawn is at the nearest depth (to float32's precision) at every surely covered centre.
    nearest = _brute_force(screen, depth, box, 0.0)
    rows, cols = np.nonzero(surely_in)
    faces = fbuf[rows, cols]
    a, b, c = screen[faces, 0], screen[faces, 1], screen[faces, 2]
    # The drawn face's depth at the centre, from its plane.
    px, py = cols + 0.5, rows + 0.5
    det = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])
    u = ((px - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (py - a[:, 1])) / det
    v = ((b[:, 0] - a[:, 0]) * (py - a[:, 1]) - (px - a[:, 0]) * (b[:, 1] - a[:, 1])) / det
    drawn = depth[faces, 0] + u * (depth[faces, 1] - depth[faces, 0]) + v * (depth[faces, 2] - depth[faces, 0])
    assert np.abs(drawn - nearest[rows, cols]).max() < 1e-3


def test_a_picture_drawn_in_a_box_is_the_whole_pictures(tmp_path, monkeypatch):
    """Drawing only the box around the parts is the same as drawing the whole picture."""
    whole = render_parts(_scene(), tmp_path / "boxed.png", size_px=(160, 120)).read_bytes()
    monkeypatch.setattr(preview, "PAD", 10_000)  # the box grows to the whole picture
    assert render_parts(_scene(), tmp_path / "whole.png", size_px=(160, 120)).read_bytes() == whole


def test_a_broken_z_buffer_fails_the_brute_force_comparison(monkeypatch):
    """The comparison above can fail: the farthest triangle instead of the nearest is caught."""
    real = preview._rasterise

    def farthest(screen, depth, box):
        return real(screen, -depth, box)

    monkeypatch.setattr(preview, "_rasterise", farthest)
    with pytest.raises(AssertionError):
        test_each_pixel_shows_the_nearest_triangle_over_its_centre((-60.0, 35.0))


def test_the_in_play_picture_lays_the_starting_beans_on_every_pits_floor(tmp_path):
    # The set's in-play preview and docs/giuthi_in_play.py draw through one function. Slabs stand
    # in for the halves here: what is tested is where the beans go and that they show.
    from printables.layout.giuthi_board import half_layout
    from printables.models import in_play_parts, render_in_play
    from printables.params.giuthi_board import GiuthiBoardParams

    board = GiuthiBoardParams()
    halves = {}
    for side in ("left", "right"):
        o = half_layout(board, side).outline
        slab = trimesh.creation.box((o.x1 - o.x0, o.y1 - o.y0, board.thickness_mm - board.pit_depth_mm))
        slab.apply_translation(((o.x0 + o.x1) / 2, (o.y0 + o.y1) / 2, (board.thickness_mm - board.pit_depth_mm) / 2))
        halves[side] = slab
    parts = in_play_parts(board, halves["left"], halves["right"])
    beans = [part for part in parts if part.colour == SEED_RGB]
    assert [part.mesh for part in parts if part.colour != SEED_RGB] == [halves["left"], halves["right"]]
    assert len(beans) == 2 * board.pits_per_row * board.seeds_per_pit
    floor = board.thickness_mm - board.pit_depth_mm
    pits = [pit for side in ("left", "right") for pit in half_layout(board, side).pits]
    for bean in beans:
        x, y, z = bean.transform[:3, 3]
        assert z == pytest.approx(floor)
        # each bean lies within a bean's length of a pit's centre, inside the cup
        assert min(np.hypot(x - pit.cx, y - pit.cy) for pit in pits) < pits[0].width / 2
    picture = Image.open(render_in_play(board, halves["left"], halves["right"], tmp_path / "in-play.png"))
    assert picture.size == (1200, 800)
    reds = np.array(picture.convert("RGB"))
    seed_like = (reds[..., 0] > reds[..., 1] + 60) & (reds[..., 0] > reds[..., 2] + 60)
    assert seed_like.sum() > 1000  # the beans are drawn, in their colour


def test_beans_in_a_bowl_with_little_floor_lie_tilted_up_its_wall_not_buried_in_it():
    # The travel board's cups are bowls (25.5 mm across, rounded by 11.5 mm): a ring of beans
    # 5.6 mm out from the centre lies on the rounded wall, lifted to it and tilted with it.
    from printables.layout.giuthi_board import Cavity
    from printables.models import _cup_surface

    bowl = Cavity("pit", 0, 0.0, 0.0, 25.5, 26.9, 11.5)
    top = 12.7
    assert _cup_surface(bowl, top, 0.0, 0.0) == (top - 11.5, (0.0, 0.0, 1.0))
    z, normal = _cup_surface(bowl, top, 5.6, 0.0)
    out = 5.6 - (25.5 / 2 - 11.5)  # past the flat floor's edge
    assert z == pytest.approx(top - 11.5 + 11.5 - np.sqrt(11.5 ** 2 - out ** 2))
    assert normal[0] < 0 and normal[1] == 0 and normal[2] > 0  # leaning in, toward the centre
    placed = preview.resting_on(np.eye(4), z, normal)
    up = placed[:3, 2]
    assert np.allclose(up, np.asarray(normal) / np.linalg.norm(normal))
    assert placed[2, 3] == pytest.approx(z)
