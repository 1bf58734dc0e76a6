# SPDX-License-Identifier: GPL-3.0-or-later
"""The viewport overlay: what to draw (pure) and drawing it (a thin GPU layer).

(a) `build_draw_data(record, unit_settings=None) -> DrawData` is a pure function of one result (a
    `results.record.CheckRecord`, or None): no bpy, no gpu, testable anywhere.
    - intersecting: the normal as an arrow from the contact point (the midpoint of the witness points), its
      length the depth but at least `MIN_ARROW_FRACTION` of the pair's size; the segment between the two witness
      points; both witness points; the depth as a label at the arrow's tip;
    - separated: the segment between the closest points, both points, the distance as a label at its midpoint;
    - touching: the contact point and a short normal arrow;
    - Check Object's rows (one object, `CheckRecord.is_one_object`): a pair of parts as above, its points tagged
      with the part numbers; the self-intersection row as its crossing curve alone, with the count as a label;
    - the overlap of two meshes (Exact mode pair check): the surface bounding it as translucent red triangles
      (`DrawData.region`, one array like the curve);
    - meshes: where the surfaces cross, the crossing curve (`DrawData.curve`: the contact's own array of segment
      ends, handed to the GPU as one array, since a turned copy of a 10,000-vertex sphere crosses its original in
      80,000 segments, far too many for one Python object each); a contained pair marks a point inside;
    colours by status (`results.status`: red / green / amber), readable on the default dark theme.
    `build_view_draw_data(view)` draws a whole `ResultsView`: the active record fully, every other listed pair
    faintly (its line or point only; a self-intersection row's curve stays drawn in full).
(b) `enable()` / `disable()` (idempotent) add and remove two `SpaceView3D` draw handlers kept in module state:
    POST_VIEW draws lines (`POLYLINE_UNIFORM_COLOR`) and points (screen-facing discs, `UNIFORM_COLOR`, since
    `POINT_UNIFORM_COLOR` does not exist in Blender 3.x); POST_PIXEL draws the labels with blf.  Nothing GPU
    happens under `bpy.app.background`.  Every gpu.state changed in a handler is restored.

The draw data is rebuilt when the results change (`refresh(view)`, a listener of `operators.store`), never in
the draw handlers.  bpy, gpu and blf are imported inside functions, so this module imports without Blender.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core import Status
from ..core.vec3 import cross, norm, perpendicular
from ..results.status import style
from ..results.text import depth_text, format_length

__all__ = [
    "DrawData", "Line", "Point", "Label", "build_draw_data", "build_view_draw_data",
    "enable", "disable", "is_enabled", "set_draw_data", "current_draw_data", "refresh",
]

Color = tuple  # (r, g, b, a), linear floats in [0, 1]
Vec3 = tuple   # (x, y, z) world coordinates

CROSSING_COLOR = (1.0, 0.1, 0.1, 1.0)
"""The curve where two meshes' surfaces cross: saturated red, drawn over the status colour."""
CROSSING_WIDTH = 3.0      # pixels
REGION_COLOR = (1.0, 0.1, 0.1, 0.3)
"""The overlap of two solids: translucent red, so the objects around it stay visible."""
FAINT_ALPHA = 0.35
"""Opacity of the listed pairs that are not the active one."""
LABEL_COLOR_WHITE = (1.0, 1.0, 1.0, 1.0)
"""The measurement label (distance, depth, touching): white on a dark backdrop reads on any surface."""
TAG_COLORS = {"A": (0.45, 0.78, 1.0, 1.0), "B": (0.85, 0.6, 1.0, 1.0)}
"""The small 'A' / 'B' tags that say which point lies on which object (light blue, light violet)."""
LABEL_BACKDROP = (0.0, 0.0, 0.0, 0.6)
LABEL_OFFSET_PX = 12.0    # label corner from its anchor, in pixels (x and y)
LABEL_PAD_PX = 3.0        # backdrop margin around the text; offset - pad clears a marker (POINT_SIZE / 2 + outline)
LINE_WIDTH = 3.0          # pixels
ARROW_WIDTH = 4.0         # pixels
POINT_SIZE = 9.0          # pixels (disc diameter)
MIN_ARROW_FRACTION = 0.15
"""Shortest normal arrow, as a fraction of the pair's scale (largest bounding-box diagonal)."""
ARROW_HEAD_FRACTION = 0.25
"""Arrow head length as a fraction of the arrow."""


@dataclass(frozen=True)
class Line:
    start: Vec3
    end: Vec3
    color: Color
    width: float = LINE_WIDTH


@dataclass(frozen=True)
class Point:
    location: Vec3
    color: Color
    size: float = POINT_SIZE


@dataclass(frozen=True)
class Label:
    anchor: Vec3
    text: str
    color: Color


@dataclass(frozen=True)
class DrawData:
    status: str = "NONE"
    lines: tuple = field(default=())
    points: tuple = field(default=())
    labels: tuple = field(default=())
    curve: object = field(default=(), compare=False)
    """The crossing curve: a read-only (2k, 3) array of its k segments' ends (start, end, start, end, ...) in
    world coordinates, drawn in `CROSSING_COLOR`; () when there is none."""
    region: object = field(default=(), compare=False)
    """The overlap's bounding surface: a read-only (3k, 3) array of its k triangles' corners in world coordinates,
    drawn in `REGION_COLOR`; () when there is none."""

    @property
    def is_empty(self) -> bool:
        return not (self.lines or self.points or self.labels or len(self.curve) or len(self.region))


# --------------------------------------------------------------------------------------------- pure part

def _vec(value) -> Vec3:
    return tuple(float(c) for c in value)


def _add(p, q, s=1.0) -> Vec3:
    return tuple(a + s * b for a, b in zip(p, q))


def _arrow(start, direction, length, color) -> list:
    """Shaft plus a four-barbed head (visible from any side) from `start` along the unit `direction`."""
    tip = _add(start, direction, length)
    head = ARROW_HEAD_FRACTION * length
    u = perpendicular(direction)
    v = cross(direction, u)
    lines = [Line(start, tip, color, ARROW_WIDTH)]
    base = _add(tip, direction, -head)
    for side in (u, v):
        for sign in (1.0, -1.0):
            lines.append(Line(tip, _add(base, side, sign * 0.5 * head), color, ARROW_WIDTH))
    return lines


def arrow_length(depth: float, scale: float) -> float:
    """Length of the normal arrow: the depth, but never shorter than MIN_ARROW_FRACTION x the pair's scale."""
    return max(float(depth), MIN_ARROW_FRACTION * float(scale))


def _tags(point_a, point_b, record=None) -> list:
    """'A' and 'B' beside the two points, so the witness or closest point of each object is known (for a pair of
    parts of one object, the part numbers)."""
    if record is not None and getattr(record, "part_a", -1) >= 0:
        return [Label(point_a, f"part {record.part_a}", TAG_COLORS["A"]),
                Label(point_b, f"part {record.part_b}", TAG_COLORS["B"])]
    return [Label(point_a, "A", TAG_COLORS["A"]), Label(point_b, "B", TAG_COLORS["B"])]


def build_draw_data(record, unit_settings=None) -> DrawData:
    """What the overlay draws for one result (None: nothing)."""
    if record is None:
        return DrawData()
    c = record.contact
    status = c.status
    if getattr(record, "is_self_intersection", False):
        curve = c.intersection.reshape(-1, 3) if len(c.intersection) else ()
        count = len(c.intersection)
        label = Label(_vec(c.point_a), f"{count} self-intersection{'s' if count != 1 else ''}"
                                       f"{' (stale)' if record.is_stale else ''}", LABEL_COLOR_WHITE)
        return DrawData(status=status.name, labels=(label,), curve=curve)
    color = style(status).color
    label_color = LABEL_COLOR_WHITE
    point_a, point_b, normal = _vec(c.point_a), _vec(c.point_b), _vec(c.normal)
    midpoint = tuple(0.5 * (p + q) for p, q in zip(point_a, point_b))
    stale = " (stale)" if record.is_stale else ""
    normal_ok = abs(norm(normal) - 1.0) < 1e-3

    lines, points, labels = [], [], []
    if status is Status.INTERSECTING:
        lines.append(Line(point_a, point_b, color, LINE_WIDTH))
        if normal_ok:
            length = arrow_length(c.depth, c.scale)
            lines.extend(_arrow(midpoint, normal, length, color))
            tip = _add(midpoint, normal, length)
        else:
            tip = midpoint
        points += [Point(point_a, color), Point(point_b, color)]
        inside = {"A_INSIDE_B": " (A inside B)", "B_INSIDE_A": " (B inside A)"}.get(
            c.containment.name if c.containment is not None else "", "")
        labels.append(Label(tip, f"depth {depth_text(record, unit_settings)}{inside}{stale}", label_color))
        labels += _tags(point_a, point_b, record)
    elif status is Status.SEPARATED:
        lines.append(Line(point_a, point_b, color, LINE_WIDTH))
        points += [Point(point_a, color), Point(point_b, color)]
        labels.append(Label(midpoint, f"{format_length(c.distance, unit_settings)}{stale}", label_color))
        labels += _tags(point_a, point_b, record)
    else:  # TOUCHING
        points.append(Point(midpoint, color, POINT_SIZE * 1.3))
        if normal_ok:
            lines.extend(_arrow(midpoint, normal, arrow_length(0.0, c.scale), color))
        labels.append(Label(midpoint, f"touching{stale}", label_color))
    curve = c.intersection.reshape(-1, 3) if len(c.intersection) else ()
    shared = getattr(record, "overlap_region", None)
    region = shared.reshape(-1, 3) if shared is not None and len(shared) else ()
    return DrawData(status=status.name, lines=tuple(lines), points=tuple(points), labels=tuple(labels), curve=curve,
                    region=region)


def _faint(record) -> tuple:
    """A listed pair that is not the active one: its line (or contact point), faded; no labels."""
    c = record.contact
    r, g, b, _a = style(c.status).color
    color = (r, g, b, FAINT_ALPHA)
    point_a, point_b = _vec(c.point_a), _vec(c.point_b)
    if c.status is Status.TOUCHING:
        return (), (Point(tuple(0.5 * (p + q) for p, q in zip(point_a, point_b)), color, POINT_SIZE * 0.7),)
    return (Line(point_a, point_b, color, LINE_WIDTH * 0.7),), (Point(point_a, color, POINT_SIZE * 0.7),
                                                               Point(point_b, color, POINT_SIZE * 0.7))


def build_view_draw_data(view) -> DrawData:
    """What the overlay draws for a `results.record.ResultsView`: the active record fully, the others faintly."""
    if view is None or not view.show_overlay:
        return DrawData()
    active = view.active
    data = build_draw_data(active, view.units)
    lines, points, curves = [], [], []
    for record in view.records:
        if record is active:
            continue
        if getattr(record, "is_self_intersection", False):
            curves.append(record.contact.intersection.reshape(-1, 3))
            continue
        faint_lines, faint_points = _faint(record)
        lines += faint_lines
        points += faint_points
    if not lines and not points and not curves:
        return data
    curve = data.curve
    if curves:
        curve = np.concatenate(curves + ([data.curve] if len(data.curve) else []))
        curve.setflags(write=False)
    return DrawData(status=data.status, lines=tuple(lines) + data.lines, points=tuple(points) + data.points,
                    labels=data.labels, curve=curve, region=data.region)


# --------------------------------------------------------------------------------------------- GPU layer
# Module state: the handles and the current draw data.  Batches for lines are cached per draw data.

_handles: dict = {}          # {"POST_VIEW": handle, "POST_PIXEL": handle}
_draw_data: DrawData = DrawData()
_draw_through: bool = True
_cache: dict = {}            # shader and line batches, rebuilt when the draw data changes


def is_enabled() -> bool:
    return bool(_handles)


def current_draw_data() -> DrawData:
    return _draw_data


def set_draw_data(data: DrawData, draw_through: bool = True) -> None:
    """Replace what is drawn (rebuilt batches on the next draw) and redraw the 3D views."""
    global _draw_data, _draw_through
    _draw_data = data
    _draw_through = bool(draw_through)
    _cache.pop("line_batches", None)
    _cache.pop("region_batch", None)
    _tag_redraw()


def enable() -> bool:
    """Add the draw handlers (once). False, doing nothing, in background mode."""
    import bpy  # noqa: PLC0415

    if bpy.app.background:
        return False
    _add_handlers()
    return True


def _add_handlers() -> None:
    """The handler pair, added once.  (Split from enable() so its bookkeeping is testable headless, where
    handlers can be added and removed but are never called.)"""
    if _handles:
        return
    import bpy  # noqa: PLC0415

    space = bpy.types.SpaceView3D
    _handles["POST_VIEW"] = space.draw_handler_add(_draw_view, (), "WINDOW", "POST_VIEW")
    _handles["POST_PIXEL"] = space.draw_handler_add(_draw_pixel, (), "WINDOW", "POST_PIXEL")
    _tag_redraw()


def disable() -> None:
    """Remove the draw handlers (if any) and forget the GPU objects."""
    if _handles:
        import bpy  # noqa: PLC0415

        for kind, handle in list(_handles.items()):
            try:
                bpy.types.SpaceView3D.draw_handler_remove(handle, "WINDOW")
            except (ValueError, RuntimeError):
                pass
            del _handles[kind]
        _tag_redraw()
    _cache.clear()


def refresh(view) -> None:
    """Listener of `operators.store`: rebuild the draw data from the new `ResultsView`, switch the handlers."""
    data = build_view_draw_data(view)
    set_draw_data(data, view.draw_through if view is not None else True)
    if not data.is_empty:
        enable()
    else:
        disable()


def _tag_redraw() -> None:
    try:
        import bpy  # noqa: PLC0415
    except ImportError:
        return
    wm = getattr(bpy.context, "window_manager", None)
    for window in getattr(wm, "windows", ()):
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                area.tag_redraw()


def _shader(name: str):
    shader = _cache.get(name)
    if shader is None:
        import gpu  # noqa: PLC0415

        shader = _cache[name] = gpu.shader.from_builtin(name)
    return shader


class _GpuState:
    """Set blend/depth state for the overlay and restore what was there before."""

    def __init__(self, depth: str):
        self.depth = depth

    def __enter__(self):
        import gpu  # noqa: PLC0415

        state = gpu.state
        self.old_blend = state.blend_get() if hasattr(state, "blend_get") else "NONE"
        self.old_depth = state.depth_test_get() if hasattr(state, "depth_test_get") else "NONE"
        self.old_mask = state.depth_mask_get() if hasattr(state, "depth_mask_get") else None
        state.blend_set("ALPHA")
        state.depth_test_set(self.depth)
        if self.old_mask is not None:
            state.depth_mask_set(False)
        return self

    def __exit__(self, *_exc):
        import gpu  # noqa: PLC0415

        gpu.state.blend_set(self.old_blend)
        gpu.state.depth_test_set(self.old_depth)
        if self.old_mask is not None:
            gpu.state.depth_mask_set(self.old_mask)
        return False


def _line_batches():
    batches = _cache.get("line_batches")
    if batches is None:
        from gpu_extras.batch import batch_for_shader  # noqa: PLC0415

        shader = _shader("POLYLINE_UNIFORM_COLOR")
        groups: dict = {}
        for line in _draw_data.lines:
            groups.setdefault((line.color, line.width), []).extend((line.start, line.end))
        batches = [(color, width, batch_for_shader(shader, "LINES", {"pos": coords}))
                   for (color, width), coords in groups.items()]
        if len(_draw_data.curve):  # one contiguous float32 array: the GPU module copies it as it is
            curve = np.ascontiguousarray(_draw_data.curve, dtype=np.float32)
            batches.append((CROSSING_COLOR, CROSSING_WIDTH, batch_for_shader(shader, "LINES", {"pos": curve})))
        _cache["line_batches"] = batches
    return batches


def _region_batch():
    """The overlap's triangles as one batch (None when there are none), cached like the line batches."""
    if "region_batch" not in _cache:
        batch = None
        if len(_draw_data.region):
            from gpu_extras.batch import batch_for_shader  # noqa: PLC0415

            corners = np.ascontiguousarray(_draw_data.region, dtype=np.float32)
            batch = batch_for_shader(_shader("UNIFORM_COLOR"), "TRIS", {"pos": corners})
        _cache["region_batch"] = batch
    return _cache["region_batch"]


def _disc_triangles(region, rv3d, location, diameter_px: float, segments: int = 12) -> list:
    """World-space triangles of a screen-facing disc of `diameter_px` pixels at `location`."""
    from bpy_extras.view3d_utils import location_3d_to_region_2d, region_2d_to_location_3d  # noqa: PLC0415

    centre_2d = location_3d_to_region_2d(region, rv3d, location)
    if centre_2d is None:
        return []
    radius = 0.5 * diameter_px
    rim = []
    for k in range(segments):
        angle = 2.0 * math.pi * k / segments
        px = (centre_2d[0] + radius * math.cos(angle), centre_2d[1] + radius * math.sin(angle))
        rim.append(tuple(region_2d_to_location_3d(region, rv3d, px, location)))
    centre = tuple(location)
    triangles = []
    for k in range(segments):
        triangles.extend((centre, rim[k], rim[(k + 1) % segments]))
    return triangles


def _view():
    """(region, region_3d, ui scale) of the view being drawn, or None outside a 3D view region."""
    import bpy  # noqa: PLC0415

    context = bpy.context
    region, rv3d = context.region, context.region_data
    if region is None or rv3d is None:
        return None
    return region, rv3d, (context.preferences.system.ui_scale if context.preferences else 1.0)


def _draw_view() -> None:
    """POST_VIEW: lines and points, depth-tested unless drawing through geometry."""
    data = _draw_data
    if data.is_empty:
        return
    from gpu_extras.batch import batch_for_shader  # noqa: PLC0415

    view = _view()
    if view is None:
        return
    region, rv3d, scale = view
    with _GpuState("NONE" if _draw_through else "LESS_EQUAL"):
        solid = _region_batch()
        if solid is not None:  # first, so the lines and points stay on top of it
            flat = _shader("UNIFORM_COLOR")
            flat.bind()
            flat.uniform_float("color", REGION_COLOR)
            solid.draw(flat)
        shader = _shader("POLYLINE_UNIFORM_COLOR")
        shader.bind()
        shader.uniform_float("viewportSize", (region.width, region.height))
        for color, width, batch in _line_batches():
            shader.uniform_float("lineWidth", width * scale)
            shader.uniform_float("color", color)
            batch.draw(shader)
        flat = _shader("UNIFORM_COLOR")
        for point in data.points:
            triangles = _disc_triangles(region, rv3d, point.location, point.size * scale)
            if not triangles:
                continue
            outline = _disc_triangles(region, rv3d, point.location, (point.size + 3.0) * scale)
            flat.bind()
            flat.uniform_float("color", (0.0, 0.0, 0.0, 0.85))
            batch_for_shader(flat, "TRIS", {"pos": outline}).draw(flat)
            flat.uniform_float("color", point.color)
            batch_for_shader(flat, "TRIS", {"pos": triangles}).draw(flat)


def _draw_pixel() -> None:
    """POST_PIXEL: text labels at the projected anchors, with a shadow for contrast."""
    data = _draw_data
    if not data.labels:
        return
    import blf  # noqa: PLC0415
    from bpy_extras.view3d_utils import location_3d_to_region_2d  # noqa: PLC0415

    view = _view()
    if view is None:
        return
    region, rv3d, scale = view
    font = 0
    size = round(14 * scale)
    try:
        blf.size(font, size)
    except TypeError:  # Blender < 4.0 also wants the dpi
        blf.size(font, size, 72)
    blf.enable(font, blf.SHADOW)
    blf.shadow(font, 3, 0.0, 0.0, 0.0, 0.9)
    blf.shadow_offset(font, 1, -1)
    placed = []
    for label in data.labels:
        position = location_3d_to_region_2d(region, rv3d, label.anchor)
        if position is not None:
            # Up and right of the anchor, far enough that the backdrop leaves the point's marker uncovered.
            placed.append((label, position[0] + LABEL_OFFSET_PX * scale, position[1] + LABEL_OFFSET_PX * scale))
    _draw_backdrops(blf, font, placed, LABEL_PAD_PX * scale)
    try:
        for label, x, y in placed:
            blf.position(font, x, y, 0.0)
            blf.color(font, *label.color)
            blf.draw(font, label.text)
    finally:
        blf.disable(font, blf.SHADOW)


def _draw_backdrops(blf, font, placed, pad) -> None:
    """A translucent dark rectangle behind each label (pixel space), so text reads on light surfaces too."""
    if not placed:
        return
    from gpu_extras.batch import batch_for_shader  # noqa: PLC0415

    triangles = []
    for label, x, y in placed:
        width, height = blf.dimensions(font, label.text)
        x0, y0, x1, y1 = x - pad, y - pad, x + width + pad, y + height + pad
        triangles += [(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)]
    shader = _shader("UNIFORM_COLOR")
    with _GpuState("NONE"):
        shader.bind()
        shader.uniform_float("color", LABEL_BACKDROP)
        batch_for_shader(shader, "TRIS", {"pos": triangles}).draw(shader)
