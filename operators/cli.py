# SPDX-License-Identifier: GPL-3.0-or-later
"""The command line, for batch and CI runs over saved files:

    blender --command collision_inspector check scene.blend [more.blend ...] [--scope VISIBLE]
        [--clearance 0.01] [--mode HULL] [--ignore-touching] [--volumes] [--group-a NAME] [--group-b NAME]
        [--scene NAME] [--report out.json] [--format JSON|CSV] [--jobs N] [--trust-scripts]

Exit code: 0 when nothing clashes (no pair listed), 1 when something does, 2 on a usage or file error, so a
pipeline can gate on it.  Settings not given come from the file's scene (`scene.collision_inspector`); the file
itself is never changed or saved.

Files are data, not code: every file is opened with Blender's scripts disabled (`use_scripts=False`, what
`blender --disable-autoexec` does), whatever the "Auto Run Python Scripts" preference says, so its registered
text blocks do not run and its Python drivers are not evaluated (drivers with simple expressions still are).
When Blender reports that it skipped something (`bpy.app.autoexec_fail`), the file's summary line says so and
names the last item skipped; results are then those of the file without that code.  `--trust-scripts` opens
files with scripts enabled, for one's own rigs whose drivers need Python.  Reports record the choice:
`"scripts_trusted": false` in JSON, `# scripts_trusted: False` in CSV.

One file runs in this process.  Several files run as separate processes, `--jobs` at a time: each runs
`cli_runner.py` (this folder) for one file, under Blender's binary when there is one, else under this Python
(the bpy module); with several files, `--report out.json` becomes `out-<file name>.json` per file.  The exit
code is then the worst of theirs.

`main(argv)` is the plain entry point: Blender's `--command` calls it through `command()`, tests call it directly.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import subprocess
import sys
from types import SimpleNamespace

from ..results import report as report_data
from . import scene_check

EXIT_CLEAN, EXIT_CLASH, EXIT_ERROR = 0, 1, 2
COMMAND_ID = "collision_inspector"


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # no sys.exit inside Blender: the caller returns EXIT_ERROR
        raise _UsageError(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog=f"blender --command {COMMAND_ID}",
                description="Check saved .blend files for collisions; exit 0 when nothing clashes, 1 when "
                            "something does, 2 on errors.")
    sub = p.add_subparsers(dest="action")
    check = sub.add_parser("check", help="check every pair in scope of each file")
    check.add_argument("files", nargs="+", help=".blend files")
    check.add_argument("--scope", choices=("SELECTED", "VISIBLE", "GROUPS"), default=None,
                       help="which objects (default: the scene's setting, VISIBLE in a new scene)")
    check.add_argument("--clearance", type=float, default=None,
                       help="also list pairs closer than this, in scene length units (default: the scene's)")
    check.add_argument("--mode", choices=("EXACT", "HULL", "LOOSE_PARTS"), default=None,
                       help="what to compare (default: the scene's mode)")
    check.add_argument("--ignore-touching", action="store_true", default=None, help="leave out touching pairs")
    check.add_argument("--volumes", action="store_true", default=None, dest="overlap_volumes",
                       help="Exact mode: also measure each intersecting pair's overlap volume (in the report)")
    check.add_argument("--group-a", default=None, help="collection name of Group A (scope GROUPS)")
    check.add_argument("--group-b", default=None, help="collection name of Group B (scope GROUPS)")
    check.add_argument("--scene", default=None, help="scene name (default: the file's active scene)")
    check.add_argument("--report", default=None, help="write a report here (.json or .csv)")
    check.add_argument("--format", choices=("JSON", "CSV"), default=None,
                       help="report format (default: from the report's extension)")
    check.add_argument("--jobs", type=int, default=1, help="files checked in parallel (separate processes)")
    check.add_argument("--quiet", action="store_true", help="print nothing but errors")
    check.add_argument("--trust-scripts", action="store_true",
                       help="let the files run their own Python (registered text blocks, Python drivers); by "
                            "default they are opened with scripts disabled, whatever Blender's preferences say")
    return p


def _say(args, text: str) -> None:
    if not getattr(args, "quiet", False):
        print(text, flush=True)


def _error(text: str) -> int:
    print(f"{COMMAND_ID}: error: {text}", file=sys.stderr, flush=True)
    return EXIT_ERROR


def _settings(bpy, scene, args) -> SimpleNamespace:
    """The scene's settings (when the add-on is registered here), overridden by the arguments."""
    saved = getattr(scene, "collision_inspector", None)
    values = SimpleNamespace(
        scope=getattr(saved, "scope", "VISIBLE"), mode=getattr(saved, "mode", "HULL"),
        clearance=float(getattr(saved, "clearance", 0.0)), ignore_touching=bool(getattr(saved, "ignore_touching",
                                                                                          False)),
        group_a=getattr(saved, "group_a", None), group_b=getattr(saved, "group_b", None),
        overlap_volumes=bool(getattr(saved, "overlap_volumes", False)))
    for name in ("scope", "mode", "clearance", "ignore_touching", "overlap_volumes"):
        given = getattr(args, name)
        if given is not None:
            setattr(values, name, given)
    if values.clearance < 0.0 or values.clearance != values.clearance:
        raise _UsageError(f"--clearance must be >= 0, got {values.clearance}")
    for which in ("a", "b"):
        name = getattr(args, f"group_{which}")
        if name is not None:
            collection = bpy.data.collections.get(name)
            if collection is None:
                raise _UsageError(f"no collection named '{name}' for --group-{which}")
            setattr(values, f"group_{which}", collection)
    return values


def _skipped_code(bpy, trusted: bool) -> str:
    """What Blender says it left unrun in the file just loaded and checked, as a sentence ('' when nothing).

    Blender sets the flag when it skips a registered text block on load or a Python driver on evaluation, and
    keeps only the last item's name; the name comes from the file, so only its printable characters are shown."""
    if not getattr(bpy.app, "autoexec_fail", False):
        return ""
    what = "".join(ch if ch.isprintable() else "?" for ch in getattr(bpy.app, "autoexec_fail_message", ""))
    text = f"Python in the file was not run: {what or 'Blender did not say which'}"
    return text if trusted else text + " (--trust-scripts runs it)"


def check_file(bpy, path: str, args) -> int:
    """Check one .blend in this process; the exit code."""
    if not os.path.isfile(path):
        return _error(f"no such file: {path}")
    trusted = bool(getattr(args, "trust_scripts", False))
    try:  # an explicit use_scripts overrides the Auto Run preference
        bpy.ops.wm.open_mainfile(filepath=os.path.abspath(path), load_ui=False, use_scripts=trusted)
    except RuntimeError as exc:
        return _error(f"cannot open {path}: {str(exc).strip().removeprefix('Error: ')}")
    context = bpy.context
    scene = bpy.data.scenes.get(args.scene) if args.scene else context.scene
    if scene is None:
        return _error(f"{path} has no scene named '{args.scene}'")
    view_layer = scene.view_layers[0] if context.scene != scene or context.view_layer is None else \
        context.view_layer
    try:
        settings = _settings(bpy, scene, args)
        with context.temp_override(scene=scene, view_layer=view_layer):
            run = scene_check.start(bpy.context, settings.scope, settings)
            message = scene_check.too_few(run, settings.scope)
            if not message:
                run.step()
            records = run.finish() if not message else []
    except (_UsageError, scene_check.ScopeError) as exc:
        return _error(f"{path}: {exc}")
    name = os.path.basename(path)
    skipped_code = _skipped_code(bpy, trusted)
    _say(args, f"{name}: {message or run.summary()}" + (f". {skipped_code}" if skipped_code else ""))
    for record in records:
        interval = ("" if record.depth_exact else
                    f" (depth {float(record.depth):.9g} to {float(record.depth_upper):.9g})")
        _say(args, f"  {record.status.name:12s} {record.object_a} / {record.object_b}  "
                   f"distance {float(record.distance):.9g}{interval}")
    if args.report:
        fmt = args.format or ("CSV" if args.report.lower().endswith(".csv") else "JSON")
        report = report_data.report_dict(
            records, file=os.path.abspath(path), scene=scene.name, mode=settings.mode,
            clearance=settings.clearance, scope=settings.scope, unit_settings=scene.unit_settings,
            date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            objects=len(run.gathered.entries), pairs_checked=run.position, skipped=run.gathered.skipped,
            scripts_trusted=trusted)
        try:
            (report_data.write_csv if fmt == "CSV" else report_data.write_json)(args.report, report)
        except OSError as exc:
            return _error(f"cannot write the report {args.report}: {exc}")
    return EXIT_CLASH if records else EXIT_CLEAN


def _per_file_reports(report: str, paths: list) -> dict:
    """out.json -> out-<file name>.json for each file (out-<file name>-2.json when two files share a name)."""
    stem, ext = os.path.splitext(report)
    names, seen = {}, {}
    for path in paths:
        base = os.path.splitext(os.path.basename(path))[0]
        seen[base] = seen.get(base, 0) + 1
        suffix = base if seen[base] == 1 else f"{base}-{seen[base]}"
        names.setdefault(path, f"{stem}-{suffix}{ext}")
    return names


def child_command(bpy, argv_for_file: list) -> list:
    """The command that checks one file in a new process."""
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli_runner.py")
    binary = getattr(bpy.app, "binary_path", "") if bpy is not None else ""
    if binary:  # inside Blender: a background Blender runs the runner script
        return [binary, "-b", "--factory-startup", "--python", runner, "--", *argv_for_file]
    return [sys.executable, runner, *argv_for_file]  # the bpy module: this Python imports bpy


def _file_argv(raw: list, files: list, path: str, args, report: str | None = None) -> list:
    """`raw` (the check's arguments) for one file: the other files dropped, the report renamed."""
    out, skip = [], False
    for i, item in enumerate(raw):
        if skip:
            skip = False
            continue
        if item in files:
            continue
        if item == "--report":
            skip = True
            continue
        if item.startswith("--report="):
            continue
        if item in ("--jobs",):
            skip = True
            continue
        if item.startswith("--jobs="):
            continue
        out.append(item)
    argv = [out[0], path, *out[1:]] if out and out[0] == "check" else ["check", path, *out]
    if report:
        argv += ["--report", report]
    return argv


def run_many(bpy, raw: list, args) -> int:
    reports = _per_file_reports(args.report, args.files) if args.report else {}

    def one(path):
        command = child_command(bpy, _file_argv(raw, args.files, path, args, reports.get(path)))
        done = subprocess.run(command, capture_output=True, text=True)
        return path, done

    worst = EXIT_CLEAN
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for path, done in pool.map(one, args.files):
            lines = [line for line in done.stdout.splitlines() if not line.startswith(("Blender ", "Read "))]
            if lines and not args.quiet:
                print("\n".join(lines), flush=True)
            if done.stderr.strip() and done.returncode not in (EXIT_CLEAN, EXIT_CLASH):
                print(done.stderr.strip(), file=sys.stderr, flush=True)
            code = done.returncode if done.returncode in (EXIT_CLEAN, EXIT_CLASH) else EXIT_ERROR
            worst = max(worst, code)
    return worst


def main(argv=None, bpy=None) -> int:
    """Run the command line; the exit code.  `bpy` defaults to the importable bpy module."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser().parse_args(argv)
    except _UsageError as exc:
        return _error(f"{exc}\n{parser().format_usage().strip()}")
    if args.action != "check":
        return _error(f"say what to do, e.g. 'check scene.blend'\n{parser().format_usage().strip()}")
    if args.jobs < 1:
        return _error("--jobs must be at least 1")
    if bpy is None:
        import bpy  # noqa: PLC0415  (parsing and usage errors need no Blender; a caller may pass its own)
    if len(args.files) == 1:
        return check_file(bpy, args.files[0], args)
    return run_many(bpy, argv, args)


def command(argv) -> int:
    """The callback of `bpy.utils.register_cli_command`."""
    return main(list(argv))
