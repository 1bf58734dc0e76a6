"""Scene builders and oracles shared by the headless Blender tests (import: `from tests.blender.scenes import ...`).

Objects are made with the data API (exact vertex positions) or the primitive operators; the independent oracle
reads each object's evaluated vertices with numpy *without* the add-on's reader and applies matrix_world itself.
"""
from __future__ import annotations

import contextlib
import itertools

import numpy as np

import bpy


def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def mesh_object(name, vertices, faces=(), location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0),
                scale=(1.0, 1.0, 1.0)):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(map(float, v)) for v in vertices], [], [tuple(f) for f in faces])
    mesh.update()
    obj = link(bpy.data.objects.new(name, mesh))
    obj.location = location
    obj.rotation_euler = rotation
    obj.scale = scale
    return obj


CUBE_FACES = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))


def cube_vertices(half=1.0):
    return [(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)]


def cube(name, half=1.0, **placement):
    """An axis-aligned cube of half-size `half` centred on its origin (8 vertices, 6 quads)."""
    return mesh_object(name, cube_vertices(half), CUBE_FACES, **placement)


def uv_sphere(name, radius=1.0, location=(0.0, 0.0, 0.0), segments=64, rings=32):
    bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, location=location, segments=segments, ring_count=rings)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def make_active(obj):
    """Select exactly `obj` and make it active (Check Object's target)."""
    for other in list(bpy.context.selected_objects):
        other.select_set(False)
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj


def select_pair(active, other):
    """Select exactly `active` (A) and `other` (B), with `active` active."""
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    other.select_set(True)
    active.select_set(True)
    bpy.context.view_layer.objects.active = active


def check_pair(active, other):
    select_pair(active, other)
    return bpy.ops.collision.check()


def result():
    return bpy.context.window_manager.collision_inspector.result


@contextlib.contextmanager
def evaluated_mesh(obj):
    """(the evaluated object, its evaluated mesh: modifiers and shape keys applied), read here, not by the add-on;
    the mesh is freed on leaving the block."""
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    try:
        yield evaluated, mesh
    finally:
        evaluated.to_mesh_clear()


def world_vertices(obj) -> np.ndarray:
    """Evaluated vertices in world space, float64, computed here (not by the add-on)."""
    with evaluated_mesh(obj) as (evaluated, mesh):
        local = np.array([tuple(v.co) for v in mesh.vertices], dtype=np.float64)
    matrix = np.array([list(row) for row in evaluated.matrix_world], dtype=np.float64)
    return local @ matrix[:3, :3].T + matrix[:3, 3]


def snapshot():
    """Everything a read-only check must leave alone: datablocks, object transforms, mesh data, selection."""
    data = {}
    for collection_name in ("objects", "meshes", "curves", "metaballs", "materials", "collections", "images",
                            "node_groups", "texts", "cameras", "lights"):
        data[collection_name] = sorted(item.name for item in getattr(bpy.data, collection_name))
    for obj in bpy.data.objects:
        data[f"matrix:{obj.name}"] = [tuple(row) for row in obj.matrix_world]
        data[f"select:{obj.name}"] = obj.select_get()
        data[f"modifiers:{obj.name}"] = [(m.name, m.type, m.show_viewport) for m in obj.modifiers]
    for mesh in bpy.data.meshes:
        co = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", co)
        data[f"mesh:{mesh.name}"] = (co.tobytes(), len(mesh.edges), len(mesh.polygons), mesh.is_editmode)
    active = bpy.context.view_layer.objects.active
    data["active"] = active.name if active else None
    data["is_dirty"] = bpy.data.is_dirty
    return data


def box_box_gap(center_a, half_a, center_b, half_b):
    """Analytic signed separation of two axis-aligned boxes along the axes (exact for face-to-face)."""
    gaps = [abs(cb - ca) - (ha + hb) for ca, ha, cb, hb in zip(center_a, half_a, center_b, half_b)]
    return gaps


def grid_corners(lo, hi):
    return np.array(list(itertools.product(*zip(lo, hi))), dtype=np.float64)


class ReportRecorder:
    """Stands in for an operator instance when calling a registered operator's execute() directly, to see its
    return value and reports (bpy.ops turns an ERROR report into a RuntimeError and hides the return value)."""

    def __init__(self, **properties):
        self.reports = []
        self.__dict__.update(properties)

    def report(self, kind, message):
        self.reports.append((set(kind), message))


def execute_directly(operator_class_name, **properties):
    """(returned set, reports) of the registered operator's execute() on the current context."""
    cls = getattr(bpy.types, operator_class_name)
    recorder = ReportRecorder(**properties)
    returned = cls.execute(recorder, bpy.context)
    return returned, recorder.reports


def rows_dict(rows) -> dict:
    """The readout's typed rows as {label: value}."""
    return {row.label: row.value for row in rows}


class RecordingLayout:
    """Enough of UILayout for the panels' draw(): records label texts and icons, operators (with the properties
    set on them) and drawn properties.  No UI exists in background mode, so this is how a test sees a panel."""

    def __init__(self, log):
        self.log = log
        self.enabled = True
        self.scale_y = 1.0

    def _child(self, *_args, **_kwargs):
        return RecordingLayout(self.log)

    row = column = box = split = _child

    def label(self, text="", icon="NONE"):
        self.log.append(("label", text, icon))

    def operator(self, idname, text="", icon="NONE"):
        props = type("Props", (), {})()
        self.log.append(("operator", idname, text, props))
        return props

    def prop(self, data, name, **_kwargs):
        self.log.append(("prop", name))

    def separator(self, **_kwargs):
        pass


def draw_panel(panel_class=None) -> list:
    """What `panel_class` (default: the main sidebar panel) draws, as a log of (kind, ...) entries."""
    log = []
    panel = type("FakePanel", (), {"layout": RecordingLayout(log)})()
    (panel_class or bpy.types.VIEW3D_PT_collision_inspector).draw(panel, bpy.context)
    return log
