"""Start Blender 3.4 under Xvfb on `window_check.py`, isolated from any real user profile.

Used by `test_window.py` and by `make demo`:

    python tests/gui/launch.py --out tests/gui/artifacts [--screenshot out/demo.png]

Blender's user folders (config, scripts, add-on symlink), its cache and its temp files all live in a fresh
temporary folder that is removed afterwards. Exit code: Blender's (non-zero on any failure, 124 on timeout).
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "window_check.py")
SCREEN = "1280x800x24"


def missing_tools():
    """The programs this tier needs that are not on PATH."""
    return [tool for tool in ("blender", "xvfb-run", "xauth") if shutil.which(tool) is None]


def command(out=None, screenshot=None, addon_root=None):
    cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}",
           "blender", "--factory-startup", "-noaudio", "--enable-event-simulate", "--python", SCRIPT, "--"]
    if out:
        cmd += ["--out", os.path.abspath(out)]
    if screenshot:
        cmd += ["--screenshot", os.path.abspath(screenshot)]
    if addon_root:
        cmd += ["--addon-root", os.path.abspath(addon_root)]
    return cmd


def run_window_check(out=None, screenshot=None, addon_root=None, timeout=300):
    """Run the window check; return (returncode, combined output, seconds)."""
    with tempfile.TemporaryDirectory(prefix="ci-gui-") as tmp:
        env = dict(os.environ)
        env.update({
            "BLENDER_USER_RESOURCES": os.path.join(tmp, "user"),
            "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
            "TMPDIR": os.path.join(tmp, "tmp"),
            "PYTHONDONTWRITEBYTECODE": "1",  # no __pycache__ written into the checkout by Blender
        })
        env.pop("PYTHONPATH", None)
        env.pop("PYTHONHOME", None)
        os.makedirs(env["TMPDIR"])
        t0 = time.monotonic()
        # Own session: on a timeout, the whole group (xvfb-run, Xvfb, Blender) is killed, not just xvfb-run.
        proc = subprocess.Popen(command(out, screenshot, addon_root), env=env, cwd=tmp, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            code = 124
            output += f"\n[launch] timed out after {timeout} s"
        return code, output, time.monotonic() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="folder for screenshots and window_check.json")
    parser.add_argument("--screenshot", help="demo picture of the intersecting pair with its overlay")
    parser.add_argument("--addon-root", help="folder to load as the add-on (default: this repository)")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    if not (args.out or args.screenshot):
        parser.error("give --out and/or --screenshot")
    missing = missing_tools()
    if missing:
        sys.exit(f"missing {', '.join(missing)}: run `make system-deps`")
    code, output, seconds = run_window_check(args.out, args.screenshot, args.addon_root, args.timeout)
    sys.stdout.write(output)
    print(f"[launch] Blender exited {code} after {seconds:.1f} s")
    sys.exit(code)


if __name__ == "__main__":
    main()
