"""How long a developer waits (issue 35): a fresh ``./dev serve`` to its first page, and the
README's test command, for this tree and a baseline revision side by side in one run.

    .venv/bin/python benchmarks/bench_feedback.py serve --baseline d0aba71       # ~2-4 min
    .venv/bin/python benchmarks/bench_feedback.py test --baseline d0aba71        # ~40 min
    .venv/bin/python benchmarks/bench_feedback.py test --only ours --fast        # the fast lane

Each side is a fresh clone (``git clone`` of this repository at the revision; ``ours`` is the
working tree's committed ``HEAD``, or the files as they are with ``--worktree``) in a temporary
directory, so nothing of this checkout's ``.venv`` or ``var/`` is reused:

- ``serve``: ``./dev serve`` on a free port with empty package caches (``XDG_CACHE_HOME`` a new
  directory: pip's and uv's caches are empty, as on a fresh machine), timed from the command's
  start to the first ``200`` of ``/``; the phases (venv and install, migrate and demo data,
  server start) are read off its output's timestamps.
- ``test``: ``./dev test`` (or ``./dev test --fast``) under ``CI=true``, after a first
  ``./dev`` run has installed the venv (the install is ``serve``'s figure), timed to its exit;
  its exit status and summary line are reported.

The two sides run one after the other (baseline first), on the same machine and services, so
compare their ratio; a machine busy with other work slows both.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def checkout(where: Path, revision: str | None) -> Path:
    """A fresh clone of this repository at ``revision`` (None: the working tree's files)."""
    tree = where / (revision or "worktree").replace("/", "-")
    if revision is None:
        shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
            ".venv", "var", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis",
            "*.egg-info", "staticfiles"))
    else:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(tree)], check=True)
        subprocess.run(["git", "-C", str(tree), "checkout", "-q", revision], check=True)
    return tree


def fresh_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "TALU_KEYRING",
                        "VIRTUAL_ENV", "TALU_TEST_RUN")}
    env["XDG_CACHE_HOME"] = str(cache)  # pip's and uv's caches: empty, as on a fresh machine
    env["UV_CACHE_DIR"] = str(cache / "uv")
    env["PIP_CACHE_DIR"] = str(cache / "pip")
    return env


def serve(tree: Path, timeout: float = 600) -> dict:
    """``./dev serve`` in a fresh clone: seconds to the first page."""
    port = free_port()
    env = fresh_env(tree.parent / f"cache-{tree.name}")
    env["PORT"] = str(port)
    log = open(tree / "serve.log", "w")  # noqa: SIM115 - closed below
    started = time.monotonic()
    proc = subprocess.Popen(["./dev", "serve"], cwd=tree, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    first_page = None
    try:
        while time.monotonic() - started < timeout:
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                    if resp.status == 200:
                        first_page = time.monotonic() - started
                        break
            except OSError:
                time.sleep(0.2)
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(30)
        log.close()
    return {"first_page_s": None if first_page is None else round(first_page, 1),
            "log_tail": (tree / "serve.log").read_text(errors="replace")[-600:]
            if first_page is None else ""}


def suite(tree: Path, fast: bool, timeout: float = 5400) -> dict:
    """``./dev test`` (``--fast``) under CI=true in a clone whose venv is installed."""
    env = fresh_env(tree.parent / f"cache-{tree.name}")
    subprocess.run(["./dev", "help"], cwd=tree, env=env, capture_output=True)
    if not (tree / ".venv" / ".installed").exists():  # an old ./dev installs only on serve/test
        subprocess.run(["bash", "-c", "python3.11 -m venv .venv && .venv/bin/pip install -q "
                        "-e '.[dev]' && touch .venv/.installed"], cwd=tree, env=env, check=True)
    env["CI"] = "true"
    started = time.monotonic()
    out = subprocess.run(["./dev", "test", *(["--fast"] if fast else [])], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - started
    lines = [ln for ln in out.stdout.splitlines() if " in " in ln and ("passed" in ln
                                                                      or "failed" in ln)]
    return {"wall_s": round(wall), "exit": out.returncode, "summary": lines[-3:],
            "tail": out.stdout[-1500:] if out.returncode else ""}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("serve", "test"))
    parser.add_argument("--baseline", help="a git revision to compare with (e.g. d0aba71)")
    parser.add_argument("--only", choices=("ours", "baseline"))
    parser.add_argument("--worktree", action="store_true",
                        help="ours is the working tree's files, not HEAD")
    parser.add_argument("--fast", action="store_true", help="test: the fast lane")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)

    sides = []
    if args.baseline and args.only != "ours":
        sides.append(("baseline", args.baseline))
    if args.only != "baseline":
        sides.append(("ours", None if args.worktree else "HEAD"))
    results = {}
    with tempfile.TemporaryDirectory(prefix="talu-feedback-") as where:
        shared = ROOT.parent / "shared"  # the specification beside the tree (../shared)
        if shared.exists():
            (Path(where) / "shared").symlink_to(shared)
        for name, revision in sides:
            tree = checkout(Path(where), revision)
            if args.what == "serve":
                results[name] = serve(tree)
            else:
                results[name] = suite(tree, args.fast and name == "ours")
            print(name, json.dumps(results[name]), flush=True)
    key = "first_page_s" if args.what == "serve" else "wall_s"
    if len(results) == 2 and results["baseline"][key] and results["ours"][key]:
        print(f"ratio ours/baseline: {results['ours'][key] / results['baseline'][key]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
