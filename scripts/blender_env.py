"""One place that knows how to give Blender a throw-away profile, which files make up the add-on, when the built zip
is out of date, and how to install it.  Used by the headless tests (tests/blender/conftest.py), `make demo`
(scripts/demo.py), the Blender benchmark (bench/bpy_check.py) and the builder (scripts/build_extension.py).

    import blender_env            # scripts/ on sys.path
    blender_env.isolate()         # before `import bpy`
    import bpy
    module = blender_env.install()   # "bl_ext.user_default.collision_inspector" (Blender 4.2+)

- `isolate()`: BLENDER_USER_RESOURCES and XDG_CACHE_HOME move into a temporary folder (removed at exit), so nothing
  the add-on or Blender writes reaches the real configuration.  It must run before bpy is imported; inside a Blender
  binary (bpy already loaded) the caller must have isolated the process already, as tests/run_in_blender.py does.
- `addon_files()`: the add-on's files, derived from the manifest's `[build] paths_exclude_pattern` with the same
  rules Blender's extension builder applies, so a new package (a new top-level folder) needs no edit anywhere.
  scripts/build_extension.py checks that the zip holds exactly these files, so a difference in the rules shows.
- `ensure_zip()`: ONE staleness rule: the zip is rebuilt (by scripts/build_extension.py) when it is missing, when
  any add-on file is newer than it, or when its list of files differs from `addon_files()` (a file added or
  removed).
- `install()`: Blender 4.2+ installs the zip with `bpy.ops.extensions.package_install_files` into the isolated
  "user_default" repository and enables it; an older Blender (Debian's 3.4 running tests/run_in_blender.py) has no
  extensions, so the source folder is enabled as a legacy add-on through a symlink in the isolated user scripts
  folder (`enable_legacy()`, also used by the real-window check).  Returns the module name.

This file lives in scripts/, which the manifest keeps out of the zip.  Standard library only.
"""
from __future__ import annotations

import fnmatch
import glob
import importlib.util
import os
import subprocess
import sys
import tempfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILDER = os.path.join(ROOT, "scripts", "build_extension.py")
EXTENSIONS_SINCE = (4, 2, 0)  # the first Blender with extensions (and bpy.ops.extensions)
REPO = "user_default"         # the extension repository every Blender 4.2+ profile has

# Blender's own exclusions when a manifest has no [build] table.
DEFAULT_EXCLUDES = ("__pycache__/", ".*", "/*.zip", "*.blend[1-9]")

_tmp: tempfile.TemporaryDirectory | None = None


class BlenderEnvError(RuntimeError):
    """Building, finding or installing the extension failed; the message says which step and why."""


# --- isolation ---------------------------------------------------------------------------------------------

def isolate(prefix: str = "ci_blender_") -> str:
    """Point Blender's user folders and the XDG cache at a temporary folder; return that folder.

    Call it before `import bpy`: Blender reads these variables once, when it starts.  A second call returns the
    same folder.  If bpy is already loaded (a Blender binary), the environment is left alone."""
    global _tmp
    if _tmp is None:
        _tmp = tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=True)
        if "bpy" not in sys.modules:
            os.environ["BLENDER_USER_RESOURCES"] = os.path.join(_tmp.name, "user")
            os.environ["XDG_CACHE_HOME"] = os.path.join(_tmp.name, "cache")
    return _tmp.name


# --- the manifest and the add-on's files -------------------------------------------------------------------

def manifest(root: str = ROOT) -> dict:
    with open(os.path.join(root, "blender_manifest.toml"), "rb") as fh:
        return tomllib.load(fh)


def addon_id() -> str:
    return manifest()["id"]


def zip_path(output_dir: str | None = None) -> str:
    """Where scripts/build_extension.py writes the zip: dist/<id>-<version>.zip unless told otherwise."""
    data = manifest()
    return os.path.join(output_dir or os.path.join(ROOT, "dist"), f"{data['id']}-{data['version']}.zip")


def _compile(pattern: str) -> tuple[bool, bool, list[str]]:
    """A gitignore-style pattern -> (anchored at the root, directories only, its path components)."""
    if pattern.startswith("!") or "**" in pattern:
        raise ValueError(f"paths_exclude_pattern {pattern!r}: negation and '**' are not supported by "
                         "scripts/blender_env.py; add them there before using them in the manifest")
    anchored = pattern.startswith("/")
    directory_only = pattern.endswith("/")
    parts = [p for p in pattern.strip("/").split("/") if p]
    if not parts:
        raise ValueError(f"paths_exclude_pattern {pattern!r} names nothing")
    return anchored, directory_only, parts


def _excluded(rules, parts: list[str], is_dir: bool) -> bool:
    """Whether the entry at path components `parts` (relative to the root) is excluded.

    As in Blender's builder: each glob matches one path component (`*` never crosses a slash); a pattern that
    starts with a slash must match the whole path, any other pattern matches the path's last components; a
    pattern ending in a slash matches directories only.  Excluded folders are not entered, so their contents
    never need testing."""
    for anchored, directory_only, pattern in rules:
        if directory_only and not is_dir:
            continue
        if len(pattern) > len(parts) or (anchored and len(pattern) != len(parts)):
            continue
        tail = parts[len(parts) - len(pattern):]
        if all(fnmatch.fnmatchcase(name, glob_) for name, glob_ in zip(tail, pattern)):
            return True
    return False


def addon_files(root: str = ROOT) -> list[str]:
    """The files the built zip holds, as sorted paths relative to `root` with forward slashes."""
    data = manifest(root)
    build = data.get("build", {})
    if "paths" in build:
        raise ValueError("the manifest's [build] paths list is not supported by scripts/blender_env.py; "
                         "use paths_exclude_pattern")
    rules = [_compile(p) for p in build.get("paths_exclude_pattern", DEFAULT_EXCLUDES)]
    found = {"blender_manifest.toml", *data.get("wheels", ())}  # the builder always adds these

    def walk(folder: str, parts: list[str]) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():  # the builder skips links (the worktree's .venv is one)
                    continue
                here = parts + [entry.name]
                is_dir = entry.is_dir()
                if _excluded(rules, here, is_dir):
                    continue
                if is_dir:
                    walk(entry.path, here)
                elif entry.is_file():
                    found.add("/".join(here))

    walk(root, [])
    return sorted(found)


# --- building ----------------------------------------------------------------------------------------------

def extension_cli() -> str:
    """Path of Blender's extension tool, blender_ext.py (standard library only, so any Python 3.11 runs it).

    BLENDER_EXT_CLI wins; else the loaded bpy's scripts folder; else the bpy package found on sys.path without
    importing it (the bpy wheel keeps it in bpy/<version>/scripts/addons_core/bl_pkg/cli/)."""
    tail = os.path.join("addons_core", "bl_pkg", "cli", "blender_ext.py")
    override = os.environ.get("BLENDER_EXT_CLI")
    if override:
        candidates = [override]
    elif "bpy" in sys.modules:
        candidates = [os.path.join(sys.modules["bpy"].utils.system_resource("SCRIPTS"), tail)]
    else:
        spec = importlib.util.find_spec("bpy")
        folders = list(spec.submodule_search_locations or []) if spec else []
        candidates = sorted((p for f in folders for p in glob.glob(os.path.join(f, "*", "scripts", tail))),
                            reverse=True)
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise BlenderEnvError(f"Blender's extension tool blender_ext.py was not found (looked at {candidates or 'no bpy'})"
                          "; run `make venv` (it installs the bpy module) or set BLENDER_EXT_CLI")


def is_current(path: str, root: str = ROOT) -> bool:
    """The staleness rule: the zip exists, is at least as new as every add-on file, and holds exactly them."""
    if not os.path.isfile(path):
        return False
    files = addon_files(root)
    built = os.path.getmtime(path)
    if any(os.path.getmtime(os.path.join(root, name)) > built for name in files):
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            members = sorted(n for n in archive.namelist() if not n.endswith("/"))
    except zipfile.BadZipFile:
        return False
    return members == files


def ensure_zip() -> str:
    """The built zip, rebuilt quietly by scripts/build_extension.py if `is_current` says it is out of date."""
    path = zip_path()
    if is_current(path):
        return path
    env = dict(os.environ, BLENDER_EXT_CLI=extension_cli())
    # Inside a Blender binary sys.executable may be Blender itself; the builder needs a plain Python.
    python = sys.executable if os.path.basename(sys.executable).startswith("python") else "python3"
    done = subprocess.run([python, BUILDER, "--quiet"], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise BlenderEnvError(f"building the extension failed (exit code {done.returncode}):\n"
                              f"{done.stdout}{done.stderr}".rstrip())
    if not is_current(path):
        raise BlenderEnvError(f"scripts/build_extension.py succeeded but {path} is still out of date")
    return path


# --- installing --------------------------------------------------------------------------------------------

def _raise(exc: BaseException) -> None:
    raise exc


def enable_legacy(root: str = ROOT) -> str:
    """Blender < 4.2: enable the folder `root` as the legacy add-on `<id>` (a symlink in the isolated user scripts
    folder); return the module name.  Also what the real-window check (tests/gui/window_check.py) does in 3.4."""
    import addon_utils  # noqa: PLC0415  (Blender's module, only inside Blender)
    import bpy  # noqa: PLC0415

    _refuse_real_profile()
    name = addon_id()
    addons = bpy.utils.user_resource("SCRIPTS", path="addons", create=True)
    link = os.path.join(addons, name)
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.abspath(root), link, target_is_directory=True)
    if addons not in sys.path:
        sys.path.append(addons)
    addon_utils.modules_refresh()
    try:
        addon_utils.enable(name, default_set=True, handle_error=_raise)
    except Exception as exc:  # noqa: BLE001  (whatever the add-on's register() raised)
        raise BlenderEnvError(f"enabling {root} as the add-on {name} failed: {exc!r}") from exc
    if not addon_utils.check(name)[1]:
        raise BlenderEnvError(f"the add-on {name} (from {root}) did not enable")
    return name


def _refuse_real_profile() -> None:
    if not os.environ.get("BLENDER_USER_RESOURCES"):
        raise BlenderEnvError("BLENDER_USER_RESOURCES is not set: refusing to install into the real user profile "
                              "(call blender_env.isolate() before importing bpy, or run through tests/gui/launch.py "
                              "or tests/run_in_blender.py)")


def install() -> str:
    """Install and enable the add-on in the running (isolated) Blender; return its module name."""
    import bpy  # noqa: PLC0415

    _refuse_real_profile()
    if bpy.app.version >= EXTENSIONS_SINCE:
        path = ensure_zip()
        done = bpy.ops.extensions.package_install_files(filepath=path, repo=REPO, enable_on_install=True)
        if done != {"FINISHED"}:
            raise BlenderEnvError(f"installing {path} returned {done}")
        module = f"bl_ext.{REPO}.{addon_id()}"
    else:
        module = enable_legacy()
    if module not in sys.modules or f"{module}.operators.store" not in sys.modules:
        raise BlenderEnvError(f"{module} did not register (its modules are not loaded after enabling it)")
    return module


def bpy_for_bench():
    """For the benchmark scripts, after `isolate()`: (bpy, the add-on's module name) with the add-on installed.
    Ends the script after printing the `RESULT` line they report with: exit 0 when bpy is missing (skipped),
    exit 1 when the add-on does not install."""
    try:
        import bpy
    except ImportError as exc:
        print(f"RESULT skipped: bpy is not importable ({exc}); run `make venv`")
        raise SystemExit(0) from None
    base = install_for_bench()
    if base is None:
        raise SystemExit(1)
    return bpy, base


def install_for_bench() -> str | None:
    """`install()` for the benchmark scripts: the module name, or None after printing the `RESULT error` line
    they report failures with."""
    try:
        return install()
    except BlenderEnvError as exc:
        print(f"RESULT error: {exc}")
        return None
