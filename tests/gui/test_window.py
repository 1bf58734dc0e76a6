"""The real-window tier: Debian's Blender 3.4 under Xvfb, the add-on enabled from this checkout, Check clicked
in the sidebar of a real 3D view, and the overlay judged from the screenshots' pixels.

One Blender run (`window_check.py`, through `launch.py`) writes the screenshots and `window_check.json` into
`tests/gui/artifacts/window/`; the tests below only read those files:
- the overlay's colours (taken from its own draw data) are on screen after Check and not before;
- each stored point (point_a, point_b) has a filled marker disc in that colour at its projection;
- every new overlay-coloured pixel lies on the projected draw-data geometry, and that geometry is drawn;
- separated: the line runs between the two projected closest points; intersecting: the arrow leaves the
  contact point along the projected normal;
- intersecting (Exact mode, two closed meshes): the overlap region's triangles bound the measured volume, and
  the pixels inside their projection turn red after Check while those around it do not change;
- the stored results agree with the scene's known geometry (bounds that need no engine).
Projections are recomputed here with numpy from the view's perspective matrix and the region rectangle, and
compared with Blender's own `location_3d_to_region_2d` numbers from the JSON.

Without Blender or xvfb-run the tier skips, except under CI (the environment variable CI set), where it fails:
`make test` installs them first (`make system-deps`).
"""
import json
import math
import os
import shutil
from functools import cached_property
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

from tests.gui.launch import missing_tools, run_window_check
from tests.gui.png import read_png

ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "window"
TIMEOUT_SECONDS = 300

COLOR_TOLERANCE = 16
"""Largest per-channel difference (0..255) between a pixel and round(255 * draw-data colour) that still counts
as that colour.  Blender 3.4 puts overlay colours on screen within about 6 of that value (measured: 0.1 -> 32,
0.2 -> 54, 0.85 -> 216); at 32 the anti-aliased red X axis of the grid starts to match the red of the overlay."""
EDGE_SLACK_PX = 2.0
"""How far outside a line's half-width or a marker's radius a pixel of its colour may still belong to it."""
MARKER_CORE_RADIUS_PX = 3.0
"""Radius of the disc that must be filled around a projected point (markers are 9 px discs)."""
REGION_RIM_PX = 3.0
"""Pixels closer than this to the edge of the overlap region's projected outline are judged neither inside nor
outside it (anti-aliasing, float32 corners)."""
REGION_CLEAR_PX = (8.0, 40.0)
"""The band around the projected overlap region, in pixels from its outline, where nothing may turn red."""
REGION_TINT_RISE = 30.0
"""Least rise of a pixel's redness (R - (G + B) / 2, 0..255) under the overlap region after Check.  One layer of
the translucent red (alpha 0.3) over Blender's grey raises it by about 0.3 * 230 = 70; the region is a closed
surface, so every pixel of its projection is covered at least twice (measured: 108 to 140)."""
REGION_TINT_STILL = 8.0
"""Largest rise of redness that still counts as unchanged around the region (measured: at most 3)."""

# The scene window_check.py builds (keep in step): cube A, half-extent 1, at the origin; icosphere B,
# radius 0.8, centred at B_INTERSECTING then moved to B_SEPARATED.
B_RADIUS = 0.8
B_INTERSECTING = np.array([1.5, 0.0, 0.35])
B_SEPARATED = np.array([2.6, 0.0, 0.9])
B_INRADIUS = 0.97 * B_RADIUS
"""A ball of this radius fits inside B's hull: its 1,280 faces are tiny (their inradius is ~0.99 r)."""


# --------------------------------------------------------------------------------------------- the run

class Window:
    """The report of one window run, with its screenshots decoded on first use."""

    def __init__(self, folder, report, seconds, log=""):
        self.folder, self.report, self.seconds, self.log = folder, report, seconds, log
        self._images = {}

    def image(self, key):
        if key not in self._images:
            self._images[key] = read_png(self.report["screenshots"][key])[..., :3].astype(np.int16)
        return self._images[key]

    @cached_property
    def viewport(self):
        """Screenshot pixels of the free 3D viewport: the WINDOW region minus the regions drawn over it
        (sidebar, toolbar, headers). The overlay draws only there; the panel's icons stay out of the counts."""
        height = self.report["window"]["height"]
        mask = np.zeros((height, self.report["window"]["width"]), bool)

        def rows_cols(r):
            return slice(height - r["y"] - r["height"], height - r["y"]), slice(r["x"], r["x"] + r["width"])

        mask[rows_cols(self.region)] = True
        for kind, rect in self.report["regions"].items():
            if kind != "WINDOW":
                mask[rows_cols(rect)] = False
        return mask

    def scene(self, name):
        return self.report["scenes"][name]

    @cached_property
    def region(self):
        return self.report["regions"]["WINDOW"]

    def project(self, scene, points):
        """World points (n, 3) -> continuous screenshot coordinates (n, 2) as (column, row), row 0 on top."""
        matrix = np.array(self.scene(scene)["perspective_matrix"])
        points = np.atleast_2d(np.asarray(points, float))
        clip = np.c_[points, np.ones(len(points))] @ matrix.T
        assert np.all(clip[:, 3] > 0), "a point is behind the view"
        ndc = clip[:, :2] / clip[:, 3:]
        r = self.region
        x = r["x"] + (ndc[:, 0] + 1.0) * 0.5 * r["width"]
        y = r["y"] + (ndc[:, 1] + 1.0) * 0.5 * r["height"]
        return np.c_[x, self.report["window"]["height"] - y]


@pytest.fixture(scope="module")
def window(request):
    missing = missing_tools()
    if missing:
        reason = f"the real-window tier needs {', '.join(missing)} (`make system-deps` installs them)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must provide them")
        pytest.skip(reason)
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    code, output, seconds = run_window_check(out=ARTIFACTS, screenshot=ARTIFACTS / "demo.png",
                                             timeout=TIMEOUT_SECONDS)
    log = ARTIFACTS / "blender.log"
    log.write_text(output)
    note = f"[gui] window run: exit {code} in {seconds:.1f} s; screenshots and log in {ARTIFACTS}"
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if capture is not None:
        with capture.global_and_fixture_disabled():
            print("\n" + note)
    else:
        print(note)
    if code != 0:
        tail = "\n".join(output.splitlines()[-40:])
        pytest.fail(f"window_check.py exited {code} after {seconds:.1f} s (log: {log}):\n{tail}")
    report = json.loads((ARTIFACTS / "window_check.json").read_text())
    return Window(ARTIFACTS, report, seconds, output)


# --------------------------------------------------------------------------------------------- pixels

def color_mask(image, rgba, where=None):
    """Pixels within COLOR_TOLERANCE of the colour, optionally only inside `where` (a boolean mask)."""
    target = np.round(255.0 * np.asarray(rgba[:3], float))
    mask = np.all(np.abs(image - target) <= COLOR_TOLERANCE, axis=-1)
    return mask if where is None else mask & where


def pixel_centres(mask):
    rows, cols = np.nonzero(mask)
    return np.c_[cols + 0.5, rows + 0.5]


def distance_to_segment(points, a, b):
    """Distance from each 2D point (n, 2) to the segment a-b."""
    ab = b - a
    t = np.clip(((points - a) @ ab) / max(ab @ ab, 1e-12), 0.0, 1.0)
    return np.linalg.norm(points - (a + t[:, None] * ab), axis=1)


def covered_fraction(mask, a, b, radius=1.5, step=1.0):
    """Fraction of the samples along a-b (screenshot coordinates) with a pixel of `mask` within `radius`."""
    n = max(2, int(np.linalg.norm(b - a) / step) + 1)
    hits = 0
    centres = pixel_centres(mask)
    for s in np.linspace(0.0, 1.0, n):
        p = a + s * (b - a)
        hits += bool(np.any(np.linalg.norm(centres - p, axis=1) <= radius))
    return hits / n


def disc_fraction(mask, centre, radius):
    """Fraction of the pixels whose centre is within `radius` of `centre` that are set in `mask`."""
    r0, c0 = int(centre[1] - radius) - 1, int(centre[0] - radius) - 1
    size = int(2 * radius) + 3
    rows, cols = np.mgrid[r0:r0 + size, c0:c0 + size]
    inside = np.hypot(cols + 0.5 - centre[0], rows + 0.5 - centre[1]) <= radius
    return mask[rows[inside], cols[inside]].mean()


def overlay_colors(scene):
    """The distinct colours of the overlay's lines and points (labels are checked apart)."""
    data = scene["draw_data"]
    return sorted({tuple(item["color"]) for item in data["lines"] + data["points"]})


SCENES = {  # scene -> (screenshot after Check, its status)
    "intersecting": ("intersecting_after", "INTERSECTING"),
    "separated": ("separated_after", "SEPARATED"),
}
WITH_DEMO = {**SCENES, "demo": ("demo", "INTERSECTING")}  # the `make demo` picture: another view, same pair


# --------------------------------------------------------------------------------------------- tests

def test_the_window_ran_and_drew_the_sidebar(window):
    width, height = window.report["window"]["width"], window.report["window"]["height"]
    for key in ("intersecting_before", "intersecting_after", "separated_after", "demo"):
        assert window.image(key).shape == (height, width, 3), key
    # The add-on's sidebar tab was brought to the front and its panel drew without raising; its Check button
    # was found there and every check was a click on it.
    assert any(name.startswith("VIEW3D_PT_collision") for name in window.report["sidebar_panels_drawn"])
    x, y = window.report["check_button"]
    sidebar = window.report["regions"]["UI"]
    assert sidebar["x"] <= x < sidebar["x"] + sidebar["width"] and sidebar["y"] <= y < sidebar["y"] + sidebar["height"]
    assert window.report["check_pressed_by"] == ["click"] * 3
    # The sidebar is open and to the right: the contact must not be hidden under it (window_check.py checks it
    # too), and the free viewport is most of the window.
    assert window.report["sidebar_open"]
    assert window.viewport.mean() > 0.6


def test_blender_printed_no_python_error(window):
    """Errors in draw handlers, panels or timers only print a traceback and carry on: look for them."""
    bad = [line for line in window.log.splitlines()
           if line.startswith(("Traceback", "Error", "ERROR")) or "Exception" in line]
    assert not bad, f"Blender printed errors (full log: {window.folder / 'blender.log'}):\n" + "\n".join(bad)


@pytest.mark.parametrize("scene", WITH_DEMO)
def test_stored_result_matches_the_scene(window, scene):
    result = window.scene(scene)["result"]
    assert result["status"] == WITH_DEMO[scene][1]
    a, b, n = (np.array(result[k]) for k in ("point_a", "point_b", "normal"))
    distance = result["distance"]
    np.testing.assert_allclose(np.linalg.norm(n), 1.0, atol=1e-5)
    if scene == "separated":
        # Between the cube and B's hull: at least the gap to B's circumscribed sphere (the hull is inside it),
        # at most the gap to its inscribed ball; the cube's nearest face is x = 1.
        centre = B_SEPARATED
        gap_to = np.linalg.norm(centre - np.clip(centre, -1.0, 1.0))
        assert gap_to - B_RADIUS - 1e-5 <= distance <= gap_to - B_INRADIUS, distance
        np.testing.assert_allclose(b - a, distance * n, atol=1e-5)
    else:
        # B pokes through the cube's x = 1 face: the ball of radius r there would go in r - 0.5 deep.
        depth = -distance
        assert B_INRADIUS - 0.5 - 1e-5 <= depth <= B_RADIUS - 0.5 + 1e-5, depth
        np.testing.assert_allclose(a - b, depth * n, atol=1e-5)
    assert n[0] > 0.95, "the normal should point from A towards B, along +x"


@pytest.mark.parametrize("scene", WITH_DEMO)
def test_harness_projection_agrees_with_blender(window, scene):
    """Our numpy projection and Blender's location_3d_to_region_2d (in the JSON) name the same pixels."""
    data = window.scene(scene)
    for key in ("point_a", "point_b"):
        ours = window.project(scene, data["result"][key])[0]
        np.testing.assert_allclose(ours, data["projected"][key]["pixel"], atol=0.5)


@pytest.mark.parametrize("scene", SCENES)
def test_overlay_colours_appear_only_after_check(window, scene):
    after_key, status = SCENES[scene]
    data = window.scene(scene)["draw_data"]
    assert data["status"] == status and data["lines"] and data["points"] and data["labels"]
    after, before, view = window.image(after_key), window.image("intersecting_before"), window.viewport
    for rgba in overlay_colors(window.scene(scene)):
        n_after, n_before = color_mask(after, rgba, view).sum(), color_mask(before, rgba, view).sum()
        assert n_after >= 150, f"{rgba}: only {n_after} pixels of the overlay's colour after Check"
        assert n_before * 10 <= n_after, f"{rgba}: {n_before} such pixels before Check, {n_after} after"


@pytest.mark.parametrize("scene", SCENES)
def test_label_is_drawn_next_to_its_anchor(window, scene):
    """The text (its own colour) appears after Check, right of and just above its projected anchor."""
    after, before, view = window.image(SCENES[scene][0]), window.image("intersecting_before"), window.viewport
    for label in window.scene(scene)["draw_data"]["labels"]:
        new = color_mask(after, label["color"], view) & ~color_mask(before, label["color"], view)
        assert new.sum() >= 20, f"label {label['text']!r}: only {new.sum()} pixels of its colour"
        anchor = window.project(scene, label["anchor"])[0]
        offset = pixel_centres(new) - anchor
        # A 14 px font, a few characters: within 15 chars * 12 px to the right, one line above or below.
        inside = (offset[:, 0] >= -4) & (offset[:, 0] <= 180) & (np.abs(offset[:, 1]) <= 40)
        assert inside.mean() >= 0.98, f"label {label['text']!r} is not next to its anchor {anchor.round()}"


@pytest.mark.parametrize("scene", WITH_DEMO)
def test_markers_sit_on_the_projected_points(window, scene):
    data = window.scene(scene)
    after = window.image(WITH_DEMO[scene][0])
    for key in ("point_a", "point_b"):
        stored = np.array(data["result"][key])
        # The overlay draws a marker at the stored point (float64 record vs float32 property)...
        marker = min(data["draw_data"]["points"], key=lambda p: np.linalg.norm(np.array(p["location"]) - stored))
        np.testing.assert_allclose(marker["location"], stored, atol=1e-5)
        # ...and on screen that marker is a filled disc of its colour around the projected point.
        centre = np.array(data["projected"][key]["pixel"])
        filled = disc_fraction(color_mask(after, marker["color"], window.viewport), centre, MARKER_CORE_RADIUS_PX)
        assert filled >= 0.9, f"{scene} {key}: only {filled:.0%} of the marker core at {centre.round(1)} filled"


@pytest.mark.parametrize("scene", SCENES)
def test_overlay_pixels_lie_on_the_projected_geometry(window, scene):
    """Every new pixel of an overlay colour belongs to a projected line or marker, and every line is drawn.

    A curve of many short segments (the crossing curve of two meshes) is judged as a whole: the A/B tags' dark
    backdrops may cover a few of its segments, not most of it."""
    data = window.scene(scene)["draw_data"]
    after, before = window.image(SCENES[scene][0]), window.image("intersecting_before")
    for rgba in overlay_colors(window.scene(scene)):
        new = color_mask(after, rgba, window.viewport) & ~color_mask(before, rgba)
        centres = pixel_centres(new)
        near = np.zeros(len(centres), bool)
        lines = [ln for ln in data["lines"] if tuple(ln["color"]) == rgba]
        points = [p for p in data["points"] if tuple(p["color"]) == rgba]
        curve = len(lines) > 8
        total = covered = 0.0
        for line in lines:
            a, b = window.project(scene, [line["start"], line["end"]])
            near |= distance_to_segment(centres, a, b) <= 0.5 * line["width"] + EDGE_SLACK_PX
            drawn = covered_fraction(new, a, b)
            length = float(np.linalg.norm(b - a))
            total, covered = total + length, covered + drawn * length
            if not curve:
                assert drawn >= 0.9, f"{scene}: only {drawn:.0%} of the line {a.round()}-{b.round()} is drawn"
        if curve:
            assert covered >= 0.9 * total, f"{scene}: only {covered / total:.0%} of the {len(lines)}-segment curve"
        for point in points:
            c = window.project(scene, point["location"])[0]
            near |= np.linalg.norm(centres - c, axis=1) <= 0.5 * point["size"] + EDGE_SLACK_PX
        # Close colours (the status red and the crossing curve's red) share anti-aliased pixels: a pixel of this
        # colour on any other drawn line is not stray either.
        for line in data["lines"]:
            if tuple(line["color"]) != rgba:
                a, b = window.project(scene, [line["start"], line["end"]])
                near |= distance_to_segment(centres, a, b) <= 0.5 * line["width"] + EDGE_SLACK_PX
        stray = centres[~near]
        assert len(stray) <= 0.02 * len(centres), (
            f"{scene}: {len(stray)} of {len(centres)} pixels of {rgba} are off the overlay's geometry, "
            f"e.g. {stray[:5].tolist()}")


def test_separated_line_runs_between_the_closest_points(window):
    data = window.scene("separated")
    after = window.image("separated_after")
    mask = color_mask(after, data["draw_data"]["lines"][0]["color"], window.viewport)
    a = np.array(data["projected"]["point_a"]["pixel"])
    b = np.array(data["projected"]["point_b"]["pixel"])
    assert np.linalg.norm(b - a) >= 40, "the closest points should be well apart on screen"
    drawn = covered_fraction(mask, a, b)
    assert drawn >= 0.95, f"only {drawn:.0%} of the way from {a.round(1)} to {b.round(1)} is drawn"
    # ...and it stops there: nothing of its colour continues past either end along the same line.
    u = (b - a) / np.linalg.norm(b - a)
    for end, direction in ((a, -u), (b, u)):
        beyond = covered_fraction(mask, end + 9.0 * direction, end + 40.0 * direction, radius=1.0)
        assert beyond <= 0.1, f"the line goes on past {end.round(1)}"


def test_intersecting_arrow_leaves_the_contact_along_the_normal(window):
    data = window.scene("intersecting")
    result = data["result"]
    after = window.image("intersecting_after")
    mask = color_mask(after, data["draw_data"]["lines"][0]["color"], window.viewport)
    a, b, n = (np.array(result[k]) for k in ("point_a", "point_b", "normal"))
    middle, depth = 0.5 * (a + b), -result["distance"]
    # The witness segment covers middle +- depth/2 along n; the arrow continues past point_a, at least as long
    # as the depth, and off-axis there is nothing of its colour.
    start, tip = window.project("intersecting", [middle + 0.5 * depth * n, middle + depth * n])
    assert np.linalg.norm(tip - start) >= 10, "the arrow's far half should span some pixels"
    drawn = covered_fraction(mask, start, tip)
    assert drawn >= 0.9, f"only {drawn:.0%} of the arrow from {start.round(1)} to {tip.round(1)} is drawn"
    side = np.array([-(tip - start)[1], (tip - start)[0]]) / np.linalg.norm(tip - start)
    off_axis = covered_fraction(mask, start + 25 * side, tip + 25 * side, radius=1.0)
    assert off_axis <= 0.1, f"{off_axis:.0%} of a parallel 25 px to the side is drawn too"


# --------------------------------------------------------------------------------------------- overlap region

def cap_volume(radius, height):
    """Volume of the cap of height `height` cut from a ball of radius `radius`."""
    return math.pi * height * height * (3.0 * radius - height) / 3.0


def redness(image):
    return image[..., 0] - 0.5 * (image[..., 1] + image[..., 2])


def fill_triangles(shape, triangles):
    """Pixels (a boolean mask of `shape`) whose centre lies in any of the 2D triangles (k, 3, 2) (column, row)."""
    mask = np.zeros(shape, bool)
    for a, b, c in triangles:
        det = (b - a)[0] * (c - a)[1] - (b - a)[1] * (c - a)[0]
        if abs(det) < 1e-9:  # seen edge-on: covers no pixel centre of its own
            continue
        c0, r0 = np.floor(np.min([a, b, c], axis=0)).astype(int)
        c1, r1 = np.ceil(np.max([a, b, c], axis=0)).astype(int)
        rows, cols = np.mgrid[max(r0, 0):min(r1, shape[0] - 1) + 1, max(c0, 0):min(c1, shape[1] - 1) + 1]
        p = np.stack([cols + 0.5 - a[0], rows + 0.5 - a[1]], axis=-1)
        u = (p[..., 0] * (c - a)[1] - p[..., 1] * (c - a)[0]) / det
        v = ((b - a)[0] * p[..., 1] - (b - a)[1] * p[..., 0]) / det
        inside = (u >= 0) & (v >= 0) & (u + v <= 1)
        mask[rows[inside], cols[inside]] = True
    return mask


def near_other_overlay(window, scene, centres, slack=4.0):
    """Which pixel centres (n, 2) lie on or by the overlay's lines, curve, markers or labels (their backdrops
    included): there the overlap region's tint is not what is judged."""
    data = window.scene(scene)["draw_data"]
    near = np.zeros(len(centres), bool)
    for line in data["lines"]:
        a, b = window.project(scene, [line["start"], line["end"]])
        near |= distance_to_segment(centres, a, b) <= 0.5 * line["width"] + slack
    for point in data["points"]:
        c = window.project(scene, point["location"])[0]
        near |= np.linalg.norm(centres - c, axis=1) <= 0.5 * point["size"] + 3.0 + slack
    for label in data["labels"]:
        # Up and right of the anchor (panels/overlay.py: 12 px offset, 3 px backdrop margin, 14 px font).
        c = window.project(scene, label["anchor"])[0]
        offset = centres - c
        near |= ((offset[:, 0] >= 0) & (offset[:, 0] <= 24 + 11 * len(label["text"]))
                 & (offset[:, 1] >= -40) & (offset[:, 1] <= 0))
    return near


@pytest.mark.parametrize("scene", WITH_DEMO)
def test_exact_check_draws_the_overlap_it_measured(window, scene):
    """Exact mode, two closed meshes: the draw data's region is a closed surface around the measured overlap,
    inside both objects; the separated pair has none."""
    data = window.scene(scene)
    assert data["settings"]["mode"] == "EXACT"
    volume, region = data["result"]["overlap_volume"], np.array(data["draw_data"]["region"], float)
    if scene == "separated":
        assert volume == 0.0 and len(region) == 0
        return
    assert data["result"]["overlap_exact"]
    assert data["draw_data"]["region_color"][0] > 0.9 and 0.0 < data["draw_data"]["region_color"][3] < 1.0
    triangles = region.reshape(-1, 3, 3)
    assert len(triangles) >= 20
    # The part of B beyond the cube's x = 1 face: between the caps cut from B's inscribed and circumscribed balls
    # (the cap's rim, radius < 0.63 around z = 0.35, stays inside the face), as the triangles' signed volume.
    signed = float(np.linalg.det(triangles).sum() / 6.0)
    np.testing.assert_allclose(signed, volume, rtol=1e-5)
    gap = B_INTERSECTING[0] - 1.0  # from the face to B's centre
    assert cap_volume(B_INRADIUS, B_INRADIUS - gap) - 1e-6 <= volume <= cap_volume(B_RADIUS, B_RADIUS - gap) + 1e-6
    corners = triangles.reshape(-1, 3)
    assert np.all(np.abs(corners) <= 1.0 + 1e-5), "a region vertex lies outside the cube A"
    assert np.all(np.linalg.norm(corners - B_INTERSECTING, axis=1) <= B_RADIUS + 1e-5), "a vertex outside B"


def test_overlap_region_is_drawn_translucent_red(window):
    """Where the region's triangles project, the pixels turn red after Check; around it they stay as they were.

    Compared with the screenshot before Check (same view, same objects), pixel by pixel, away from the
    overlay's lines, markers and labels, and from the region's own outline."""
    scene = "intersecting"
    region = np.array(window.scene(scene)["draw_data"]["region"], float)
    assert len(region), "no overlap region in the draw data"
    height, width = window.report["window"]["height"], window.report["window"]["width"]
    inside = fill_triangles((height, width), window.project(scene, region).reshape(-1, 3, 2))
    from_outline = ndimage.distance_transform_edt(inside), ndimage.distance_transform_edt(~inside)
    core = inside & (from_outline[0] > REGION_RIM_PX) & window.viewport
    band = (~inside & (from_outline[1] > REGION_CLEAR_PX[0]) & (from_outline[1] <= REGION_CLEAR_PX[1])
            & window.viewport)
    rise = redness(window.image("intersecting_after")) - redness(window.image("intersecting_before"))
    for mask in (core, band):
        rows, cols = np.nonzero(mask)
        keep = ~near_other_overlay(window, scene, np.c_[cols + 0.5, rows + 0.5])
        mask[rows[~keep], cols[~keep]] = False
    assert core.sum() >= 500, f"only {core.sum()} pixels of the projected region to judge"
    assert band.sum() >= 2000, f"only {band.sum()} pixels around the projected region to judge"
    red = (rise[core] >= REGION_TINT_RISE).mean()
    assert red >= 0.98, (f"only {red:.1%} of the {core.sum()} pixels inside the projected overlap region turned "
                         f"red (median redness rise {np.median(rise[core]):.0f})")
    still = (rise[band] <= REGION_TINT_STILL).mean()
    assert still >= 0.99, f"{1 - still:.1%} of the {band.sum()} pixels around the overlap region turned red too"
