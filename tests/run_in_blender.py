"""Run the test-suite inside a Blender binary (instead of the bpy module):

    blender -b --factory-startup --python tests/run_in_blender.py -- [pytest arguments, default: tests]

- Exits with pytest's exit code (`sys.exit`), so CI sees failures.
- Isolation: unless BLENDER_USER_RESOURCES is already set, it re-runs the same Blender command with
  BLENDER_USER_RESOURCES and XDG_CACHE_HOME in a temporary directory, so installing/enabling the add-on never
  touches the user's own configuration.
- pytest: Blender's Python rarely has it.  If `import pytest` fails, the project venv's site-packages
  (`.venv/lib/pythonX.Y/site-packages`, same X.Y as Blender's Python, or the directory in CI_PYTEST_SITE) is
  appended to the *end* of sys.path: pure-Python pytest comes from there, while numpy and everything else
  Blender ships keeps coming from Blender's own paths.  If the versions differ, it stops with an explanation.
- Inside Blender < 4.2 (no extensions) the blender tier enables the source folder as a legacy add-on.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _isolated_rerun() -> None:
    import bpy

    with tempfile.TemporaryDirectory(prefix="ci_run_in_blender_") as tmp:
        env = dict(os.environ)
        env["BLENDER_USER_RESOURCES"] = os.path.join(tmp, "user")
        env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        command = [bpy.app.binary_path, *sys.argv[1:]]
        print("run_in_blender: re-running isolated:", " ".join(command), flush=True)
        code = subprocess.call(command, env=env)
    sys.exit(code)


def _import_pytest():
    try:
        import pytest
        return pytest
    except ImportError:
        pass
    tag = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [os.environ.get("CI_PYTEST_SITE", "")]
    candidates += [os.path.join(ROOT, venv, "lib", tag, "site-packages") for venv in (".venv", ".venv-np2")]
    for site in candidates:
        if site and os.path.isdir(os.path.join(site, "pytest")):
            sys.path.append(site)  # last: Blender's own numpy etc. keep precedence
            print(f"run_in_blender: pytest taken from {site}", flush=True)
            import pytest
            return pytest
    print(f"run_in_blender: pytest is not importable in Blender's Python ({sys.version.split()[0]}) and no "
          f"site-packages for {tag} with pytest was found (tried {[c for c in candidates if c]}). Install pytest "
          "for Blender's Python or point CI_PYTEST_SITE at a site-packages directory that has it.", flush=True)
    sys.exit(2)


def main() -> None:
    if "BLENDER_USER_RESOURCES" not in os.environ:
        _isolated_rerun()
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    pytest = _import_pytest()
    os.chdir(ROOT)
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    code = pytest.main(["-p", "no:cacheprovider", *(args or ["tests"])])
    sys.stdout.flush()
    sys.exit(int(code))


if __name__ == "__main__":
    main()
