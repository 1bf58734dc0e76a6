"""Builders and the independent reference for the scene-check tests (tests/blender/test_scene_check*.py).

The reference reads each object's evaluated vertices itself (`scenes.world_vertices`: numpy, not the add-on's
reader), applies matrix_world itself, and loops over every pair with `core.collide` on the world vertex arrays:
no broad phase, no shared shapes, none of the add-on's scene-check code.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

import bpy
from tests.blender.scenes import cube, link, world_vertices


def random_scene(seed: int, count: int = 24, spread: float = 6.0):
    """`count` objects of mixed kinds (boxes, ico spheres, cylinders, vertex clouds), random poses, crowded so
    that some intersect; plus a face-to-face touching pair of cubes.  Returns the objects."""
    rng = np.random.default_rng(seed)
    objects = []
    for i in range(count):
        kind = i % 4
        location = tuple(rng.uniform(-spread, spread, 3))
        rotation = tuple(rng.uniform(0, math.pi, 3))
        scale = tuple(rng.uniform(0.4, 1.6, 3))
        if kind == 0:
            obj = cube(f"Box{i:02d}", half=1.0, location=location, rotation=rotation, scale=scale)
        else:
            if kind == 1:
                bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, radius=1.0, location=location)
            elif kind == 2:
                bpy.ops.mesh.primitive_cylinder_add(vertices=12, radius=0.8, depth=2.0, location=location)
            else:
                bpy.ops.mesh.primitive_cone_add(vertices=10, radius1=1.0, depth=1.5, location=location)
            obj = bpy.context.active_object
            obj.name = f"Prim{i:02d}"
            obj.rotation_euler = rotation
            obj.scale = scale
        objects.append(obj)
    objects.append(cube("TouchA", half=0.5, location=(30.0, 0.0, 0.0)))
    objects.append(cube("TouchB", half=0.5, location=(31.0, 0.0, 0.0)))
    bpy.context.view_layer.update()
    return objects


def reference(core, objects, clearance: float = 0.0, ignore_touching: bool = False, pairs=None) -> dict:
    """{frozenset(names): contact} of every listed pair, by brute force over `pairs` (default: all pairs)."""
    world = {obj.name: world_vertices(obj) for obj in objects}
    found = {}
    candidates = pairs if pairs is not None else itertools.combinations([o.name for o in objects], 2)
    for name_a, name_b in candidates:
        contact = core.collide(world[name_a], world[name_b])
        status = contact.status.name
        keep = (status == "INTERSECTING" or (status == "TOUCHING" and not ignore_touching)
                or (status == "SEPARATED" and contact.distance <= clearance))
        if keep:
            found[frozenset((name_a, name_b))] = contact
    return found


def listed(store) -> dict:
    return {frozenset((r.object_a, r.object_b)): r for r in store.records()}


def settings():
    return bpy.context.scene.collision_inspector


def new_collection(name, objects=(), parent=None):
    collection = bpy.data.collections.new(name)
    (parent or bpy.context.scene.collection).children.link(collection)
    for obj in objects:
        for owner in list(obj.users_collection):
            owner.objects.unlink(obj)
        collection.objects.link(obj)
    return collection


def empty(name, location=(0.0, 0.0, 0.0)):
    obj = link(bpy.data.objects.new(name, None))
    obj.location = location
    return obj
