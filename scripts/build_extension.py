"""Validate the extension and build the installable zip with Blender's own extension tool.

    .venv/bin/python scripts/build_extension.py [--output-dir dist] [--quiet]

The tool is `blender_ext.py`, the command line behind `blender --command extension ...`; the bpy wheel ships it
under `bpy.utils.system_resource('SCRIPTS')/addons_core/bl_pkg/cli/`, and it needs only the standard library.
Steps: validate the source tree, build `dist/<id>-<version>.zip`, validate the zip, and check that the zip holds
exactly the add-on's files (`blender_env.addon_files()`, derived from the manifest's exclude rules) and nothing of
the tests or tools.  Any failure exits non-zero with the tool's message; `--quiet` prints only failures.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import zipfile

import blender_env  # scripts/blender_env.py: this script's folder is first on sys.path

ROOT = blender_env.ROOT

# Every package holds these whatever the manifest's rules say; the rest of the list comes from those rules.
REQUIRED_MEMBERS = ("blender_manifest.toml", "__init__.py")
# Never in a package, whatever the rules say: a second net under the manifest's exclusions.
FORBIDDEN_PREFIXES = ("tests/", "bench/", "dist/", "out/", "scripts/", ".ci/", ".venv", ".git")

QUIET = False  # --quiet: the tool's output is printed only when a step fails


def fail(message: str) -> "NoReturn":  # noqa: F821
    print(f"build_extension: ERROR: {message}", file=sys.stderr)
    sys.exit(1)


def say(text: str) -> None:
    if not QUIET:
        print(text)


def run_tool(cli: str, *args: str) -> None:
    command = [sys.executable, cli, *args]
    result = subprocess.run(command, capture_output=True, text=True)
    output = (result.stdout + result.stderr).strip()
    failed = result.returncode != 0
    # The tool reports some problems as text with exit code 0 in older versions; be strict.
    printed_error = "error" in output.lower() and args[0] == "validate"
    if not QUIET or failed or printed_error:
        print("$", " ".join(command))
        if output:
            print(output)
    if failed:
        fail(f"`blender_ext {args[0]}` failed with exit code {result.returncode}")
    if printed_error:
        fail(f"`blender_ext validate` printed an error: {output}")


def check_zip(path: str) -> None:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    leaked = sorted(n for n in names if n.startswith(FORBIDDEN_PREFIXES) or "__pycache__" in n)
    if leaked:
        fail(f"{path} contains files that are not part of the add-on: {leaked[:10]}")
    files = [n for n in names if not n.endswith("/")]
    expected = blender_env.addon_files()
    missing = sorted(set(REQUIRED_MEMBERS).union(expected).difference(files))
    if missing:
        fail(f"{path} lacks {missing}")
    extra = sorted(set(files).difference(expected))
    if extra:  # the builder and blender_env.addon_files() read the manifest's rules differently
        fail(f"{path} holds files that blender_env.addon_files() does not list: {extra[:10]}")
    say(f"{path}: {len(names)} files, {os.path.getsize(path)} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", default=os.path.join(ROOT, "dist"))
    parser.add_argument("--quiet", action="store_true", help="print nothing unless a step fails")
    args = parser.parse_args(argv)
    global QUIET
    QUIET = args.quiet

    zip_path = blender_env.zip_path(os.path.abspath(args.output_dir))
    try:
        cli = blender_env.extension_cli()
    except blender_env.BlenderEnvError as exc:
        fail(str(exc))
    run_tool(cli, "validate", ROOT)
    os.makedirs(args.output_dir, exist_ok=True)
    if os.path.exists(zip_path):
        os.remove(zip_path)
    run_tool(cli, "build", "--source-dir", ROOT, "--output-dir", args.output_dir)
    if not os.path.isfile(zip_path):
        fail(f"the build reported success but {zip_path} does not exist")
    run_tool(cli, "validate", zip_path)
    check_zip(zip_path)
    say(f"built {zip_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
