"""`make demo`: two pairs of real meshes checked by the installed extension, headless, then a screenshot.

    .venv/bin/python scripts/demo.py [--no-screenshot]

1. In the bpy module, with Blender's user folders in a temporary directory, install the built zip
   (dist/collision_inspector-<version>.zip, rebuilt first if out of date) exactly as a user would; all of that is
   scripts/blender_env.py.
2. Build a scene with two pairs: a cube and a UV sphere that intersect; a bevelled box and a cylinder that are
   separated.  Press the real `bpy.ops.collision.check()` on each pair and print the sidebar's readout (the same
   `readout_rows` function the panel draws).
3. Save the scene to out/demo.blend.
4. If Debian's Blender and xvfb-run are there, save a screenshot of a real window with the overlay to out/demo.png
   (tests/gui/launch.py runs tests/gui/window_check.py under Xvfb).

What it prints: the two readouts and where the files went.  Everything else (Blender's own messages, the window
run's step log) goes to out/demo.log; if a step fails, the end of that log is printed.
"""
from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib.util
import os
import shutil
import sys
import traceback

import blender_env  # scripts/blender_env.py (this script's folder is first on sys.path)

blender_env.isolate("ci_demo_")
import bpy  # noqa: E402  (after the isolation above)

ROOT = blender_env.ROOT
OUT = os.path.join(ROOT, "out")
LOG = os.path.join(OUT, "demo.log")
LAUNCHER = os.path.join(ROOT, "tests", "gui", "launch.py")
LOG_TAIL_LINES = 25
FILE_COLUMN = 36  # width of the path column in the list of files


def shown(path: str) -> str:
    """A path as the user can type it from where they are: relative when below the current folder."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


@contextlib.contextmanager
def output_to(log):
    """Send everything written to this process's stdout and stderr, by Python or by Blender's C code, to `log`."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    try:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        libc.fflush(None)  # Blender's printf buffers: empty them into the log, not onto the terminal later
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)


def print_log_tail(reason: str) -> None:
    with open(LOG, encoding="utf-8", errors="replace") as fh:
        tail = fh.read().splitlines()[-LOG_TAIL_LINES:]
    print(f"{reason}; the end of {shown(LOG)}:")
    for line in tail:
        print(f"   | {line}")


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


def readout(module: str, title: str) -> list[str]:
    """The sidebar's readout of the active result, as lines of text under `title`."""
    import importlib

    store = importlib.import_module(f"{module}.operators.store")
    text = importlib.import_module(f"{module}.results.text")
    rows = text.readout_rows(store.active_record(), bpy.context.scene.unit_settings)
    width = max(len(row.label) for row in rows)
    return [title] + [f"   {row.label:<{width}}  {row.value}" for row in rows]


def check_and_save(blend: str) -> list[str]:
    """Install, build the scene, press Check on both pairs, save the .blend; return the readouts' lines."""
    module = blender_env.install()
    lines = []
    for active, other in build_scene():
        select_pair(active, other)
        result = bpy.ops.collision.check()
        if result != {"FINISHED"}:
            raise RuntimeError(f"check of {active.name} / {other.name} returned {result}")
        lines += readout(module, f"{active.name} (A) vs {other.name} (B)") + [""]
    bpy.context.preferences.filepaths.save_version = 0  # no demo.blend1 backup next to it on a second run
    if bpy.ops.wm.save_as_mainfile(filepath=blend) != {"FINISHED"}:
        raise RuntimeError(f"saving {blend} failed")
    return lines


def file_line(path: str, what: str) -> str:
    return f"   {shown(path):<{FILE_COLUMN}}  {what}"


def screenshot(path: str) -> int:
    """A real Blender window with the overlay, saved to `path`; its output is appended to the log."""
    missing = [tool for tool in ("blender", "xvfb-run", "xauth") if shutil.which(tool) is None]
    if missing:
        print(file_line(path, f"not made: {', '.join(missing)} missing (`make system-deps` installs them)"))
        return 0
    spec = importlib.util.spec_from_file_location("window_launch", LAUNCHER)
    launch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(launch)
    # Debian's Blender derives its Python prefix from the python3 first on PATH: a pyenv/venv interpreter there
    # hides /usr/lib/python3/dist-packages (numpy).  Give the window the system's PATH order.
    os.environ["PATH"] = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                                         if "/.pyenv/versions/" not in p and "/.venv" not in p)
    waiting = file_line(path, "in the making: a real Blender 3.4 window under Xvfb, about 40 s ...")
    if sys.stdout.isatty():  # a terminal: this line is replaced by the outcome
        print(waiting, end="\r", flush=True)
    code, output, seconds = launch.run_window_check(screenshot=path)
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(f"\n--- the real-window run (tests/gui/launch.py --screenshot {path}): exit code {code} after "
                  f"{seconds:.1f} s\n{output}")
    ok = code == 0 and os.path.isfile(path)
    outcome = file_line(path, "a real Blender window with the overlay" if ok else f"FAILED (exit code {code})")
    print(outcome.ljust(len(waiting)) if sys.stdout.isatty() else outcome)
    if ok:
        return 0
    print_log_tail("the window run failed")
    return code or 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-screenshot", action="store_true", help="skip the real-window screenshot")
    args = parser.parse_args()

    os.makedirs(OUT, exist_ok=True)
    blend = os.path.join(OUT, "demo.blend")
    with open(LOG, "w", encoding="utf-8") as log:
        log.write(f"make demo: Blender {bpy.app.version_string} (the bpy module), "
                  f"user folders in {blender_env.isolate()}\n")
        log.flush()
        try:
            with output_to(log):
                lines = check_and_save(blend)
        except Exception as exc:  # noqa: BLE001  (any failure: say it, show the log)
            with open(LOG, "a", encoding="utf-8") as again:
                again.write("\n" + traceback.format_exc())
            print_log_tail(f"the demo failed ({exc})")
            return 1
    print("\n".join(lines))
    print("Files")
    print(file_line(blender_env.zip_path(), "the extension, as installed"))
    print(file_line(blend, "the scene: both pairs with their results"))
    print(file_line(LOG, "Blender's messages and the window run's step log"))
    return 0 if args.no_screenshot else screenshot(os.path.join(OUT, "demo.png"))


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.exit(code)
