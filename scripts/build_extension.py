"""Validate the extension and build the installable zip with Blender's own extension tool.

    .venv/bin/python scripts/build_extension.py [--output-dir dist]

The tool is `blender_ext.py`, the command line behind `blender --command extension ...`; the bpy wheel ships it
under `bpy.utils.system_resource('SCRIPTS')/addons_core/bl_pkg/cli/`, and it needs only the standard library.
Steps: validate the source tree, build `dist/<id>-<version>.zip`, validate the zip, and check that the zip holds
the add-on (and nothing of the tests or tools).  Any failure exits non-zero with the tool's message.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What a built package must contain, and what it must never contain (paths inside the zip).
REQUIRED_MEMBERS = ("blender_manifest.toml", "__init__.py", "core/__init__.py", "operators/__init__.py",
                    "panels/__init__.py", "panels/overlay.py")
FORBIDDEN_PREFIXES = ("tests/", "bench/", "dist/", "out/", "scripts/", ".ci/", ".venv", ".git")


def fail(message: str) -> "NoReturn":  # noqa: F821
    print(f"build_extension: ERROR: {message}", file=sys.stderr)
    sys.exit(1)


def find_extension_cli() -> str:
    """Path of blender_ext.py inside the installed bpy module (imported in an isolated user dir)."""
    override = os.environ.get("BLENDER_EXT_CLI")
    if override:
        return override
    with tempfile.TemporaryDirectory(prefix="ci_build_") as tmp:
        # Importing bpy must not touch the user's real config or ~/.cache.
        os.environ.setdefault("BLENDER_USER_RESOURCES", os.path.join(tmp, "user"))
        os.environ.setdefault("XDG_CACHE_HOME", os.path.join(tmp, "cache"))
        try:
            import bpy  # noqa: PLC0415
        except ImportError as exc:
            fail(f"cannot import bpy ({exc}); run `make venv` first or set BLENDER_EXT_CLI")
        scripts = bpy.utils.system_resource("SCRIPTS")
    path = os.path.join(scripts, "addons_core", "bl_pkg", "cli", "blender_ext.py")
    if not os.path.isfile(path):
        fail(f"Blender's extension tool is not at {path}")
    return path


def run_tool(cli: str, *args: str) -> None:
    command = [sys.executable, cli, *args]
    print("$", " ".join(command))
    result = subprocess.run(command, capture_output=True, text=True)
    output = (result.stdout + result.stderr).strip()
    if output:
        print(output)
    if result.returncode != 0:
        fail(f"`blender_ext {args[0]}` failed with exit code {result.returncode}")
    # The tool reports some problems as text with exit code 0 in older versions; be strict.
    if "error" in output.lower() and args[0] == "validate":
        fail(f"`blender_ext validate` printed an error: {output}")


def check_zip(path: str) -> None:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    missing = [m for m in REQUIRED_MEMBERS if m not in names]
    if missing:
        fail(f"{path} lacks {missing}")
    leaked = sorted(n for n in names if n.startswith(FORBIDDEN_PREFIXES) or "__pycache__" in n)
    if leaked:
        fail(f"{path} contains files that are not part of the add-on: {leaked[:10]}")
    print(f"{path}: {len(names)} files, {os.path.getsize(path)} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", default=os.path.join(ROOT, "dist"))
    args = parser.parse_args(argv)

    with open(os.path.join(ROOT, "blender_manifest.toml"), "rb") as fh:
        manifest = tomllib.load(fh)
    zip_path = os.path.join(args.output_dir, f"{manifest['id']}-{manifest['version']}.zip")

    cli = find_extension_cli()
    run_tool(cli, "validate", ROOT)
    os.makedirs(args.output_dir, exist_ok=True)
    if os.path.exists(zip_path):
        os.remove(zip_path)
    run_tool(cli, "build", "--source-dir", ROOT, "--output-dir", args.output_dir)
    if not os.path.isfile(zip_path):
        fail(f"the build reported success but {zip_path} does not exist")
    run_tool(cli, "validate", zip_path)
    check_zip(zip_path)
    print(f"built {zip_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
