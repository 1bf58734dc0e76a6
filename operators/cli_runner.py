# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks one .blend for `cli.py` in a separate process (several files in parallel).

    python cli_runner.py check scene.blend [options]                      (a Python with the bpy module)
    blender -b --factory-startup --python cli_runner.py -- check ...       (a Blender binary)

It loads the add-on's package from the folder above this one under its own name, without registering anything
in Blender, runs `cli.main` and exits with its code.
"""
import importlib
import importlib.util
import os
import sys

PACKAGE = "collision_inspector_cli_runner"


def _package_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    root = _package_root()
    spec = importlib.util.spec_from_file_location(PACKAGE, os.path.join(root, "__init__.py"),
                                                  submodule_search_locations=[root])
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    spec.loader.exec_module(package)
    cli = importlib.import_module(f"{PACKAGE}.operators.cli")
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main())
