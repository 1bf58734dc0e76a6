"""`make demo`: two pairs of real meshes checked by the installed extension, headless, then a screenshot.

    .venv/bin/python scripts/demo.py [--no-screenshot]

1. In the bpy module, with Blender's user folders in a temporary directory, install the built zip
   (dist/collision_inspector-<version>.zip; rebuilt first if missing or older than the sources) exactly as a user would.
2. Build a scene with two pairs: a cube and a UV sphere that intersect; a bevelled box and a cylinder that are
   separated.  Press the real `bpy.ops.collision.check()` on each pair and print the sidebar's readout (the same
   `readout_rows` function the panel draws).
3. Save the scene to out/demo.blend.
4. If Debian's Blender and xvfb-run are there and the real-window script exists (tests/gui/launch.py, which runs
   tests/gui/window_check.py under Xvfb), save a screenshot of a real window with the overlay to out/demo.png.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out")
ADDON_ID = "collision_inspector"

_TMP = tempfile.TemporaryDirectory(prefix="ci_demo_")
os.environ["BLENDER_USER_RESOURCES"] = os.path.join(_TMP.name, "user")
os.environ["XDG_CACHE_HOME"] = os.path.join(_TMP.name, "cache")

import bpy  # noqa: E402  (after the isolation above)


def newest_source_mtime() -> float:
    newest = 0.0
    for entry in ("__init__.py", "blender_manifest.toml", "core", "results", "operators", "panels"):
        path = os.path.join(ROOT, entry)
        for folder, _dirs, files in os.walk(path) if os.path.isdir(path) else [(ROOT, [], [entry])]:
            for name in files:
                if name.endswith((".py", ".toml")):
                    newest = max(newest, os.path.getmtime(os.path.join(folder, name)))
    return newest


def zip_path() -> str:
    with open(os.path.join(ROOT, "blender_manifest.toml"), "rb") as fh:
        manifest = tomllib.load(fh)
    path = os.path.join(ROOT, "dist", f"{manifest['id']}-{manifest['version']}.zip")
    if not os.path.isfile(path) or os.path.getmtime(path) < newest_source_mtime():
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "build_extension.py")], check=True)
    return path


def install() -> str:
    result = bpy.ops.extensions.package_install_files(filepath=zip_path(), repo="user_default",
                                                      enable_on_install=True)
    if result != {"FINISHED"}:
        raise SystemExit(f"installing the extension failed: {result}")
    return f"bl_ext.user_default.{ADDON_ID}"


def select_pair(active, other) -> None:
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    other.select_set(True)
    active.select_set(True)
    bpy.context.view_layer.objects.active = active


def build_scene():
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.context.scene.unit_settings.system = "METRIC"
    # Pair 1: a cube (2 m) and a UV sphere pushed into its +x face.
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 0.0))
    cube = bpy.context.active_object
    cube.name = "Cube"
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.8, location=(1.5, 0.0, 0.35), segments=48, ring_count=24)
    sphere = bpy.context.active_object
    sphere.name = "Sphere"
    # Pair 2: a bevelled box and a cylinder beside it, 4 m further along y.
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 4.0, 0.0), scale=(1.2, 0.8, 0.6))
    box = bpy.context.active_object
    box.name = "Bevelled Box"
    bevel = box.modifiers.new("Bevel", "BEVEL")
    bevel.width = 0.08
    bevel.segments = 3
    bpy.ops.mesh.primitive_cylinder_add(radius=0.4, depth=1.2, location=(1.35, 4.0, 0.1), vertices=48)
    cylinder = bpy.context.active_object
    cylinder.name = "Cylinder"
    return [(cube, sphere), (box, cylinder)]


def print_readout(module: str, title: str) -> None:
    import importlib

    store = importlib.import_module(f"{module}.operators.store")
    text = importlib.import_module(f"{module}.results.text")
    rows = text.readout_rows(store.active_record(), bpy.context.scene.unit_settings)
    width = max(len(row.label) for row in rows)
    print(f"\n== {title}")
    for row in rows:
        print(f"   {row.label:<{width}}  {row.value}")


def screenshot(path: str) -> int:
    launcher = os.path.join(ROOT, "tests", "gui", "launch.py")
    missing = [tool for tool in ("blender", "xvfb-run") if shutil.which(tool) is None]
    if missing or not os.path.isfile(launcher):
        reason = f"missing {', '.join(missing)}" if missing else "tests/gui/launch.py is not there yet"
        print(f"\nscreenshot skipped: {reason}")
        return 0
    # Debian's Blender derives its Python prefix from the python3 first on PATH: a pyenv/venv interpreter there
    # hides /usr/lib/python3/dist-packages (numpy).  Give the window the system's PATH order.
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if "/.pyenv/versions/" not in p and "/.venv" not in p)
    print(f"\nscreenshot: {launcher} --screenshot {path}  (Blender 3.4 under Xvfb, ~40 s)")
    code = subprocess.call(["/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable,
                            launcher, "--screenshot", path], env=env)
    if code == 0 and os.path.isfile(path):
        print(f"saved {path}")
    else:
        print(f"screenshot FAILED (exit code {code})")
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-screenshot", action="store_true", help="skip the real-window screenshot")
    args = parser.parse_args()

    module = install()
    print(f"installed {module} from {os.path.relpath(zip_path(), ROOT)} (Blender {bpy.app.version_string})")
    pairs = build_scene()
    for active, other in pairs:
        select_pair(active, other)
        result = bpy.ops.collision.check()
        if result != {"FINISHED"}:
            print(f"check of {active.name} / {other.name} returned {result}")
            return 1
        print_readout(module, f"{active.name} (A) vs {other.name} (B)")

    os.makedirs(OUT, exist_ok=True)
    blend = os.path.join(OUT, "demo.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend)
    print(f"\nsaved {blend}")
    return 0 if args.no_screenshot else screenshot(os.path.join(OUT, "demo.png"))


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.exit(code)
