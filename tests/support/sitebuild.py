"""Helpers to build throw-away copies of the project with mkdocs (in a subprocess, as authors do)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support.project import EPOCH, ROOT   # EPOCH: every build's SOURCE_DATE_EPOCH (TODAY, midnight UTC)

FIXTURE = ROOT / "tests" / "site_fixture"


def committed_copy(dest: Path, paths=("conventions.yml", "mkdocs.yml", "docs", "series")) -> Path:
    """The project's files under `paths` as committed (`git ls-files`: no build output or caches), in `dest`."""
    files = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True,
                           check=True).stdout.split(b"\0")
    for rel in filter(None, (f.decode() for f in files)):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, dest / rel)
    return dest


def make_project(tmp: Path, series: Path | None = FIXTURE / "series", node_modules: bool = True) -> Path:
    proj = tmp / "proj"
    proj.mkdir(parents=True)
    for name in ("mkdocs.yml", "conventions.yml"):
        shutil.copy(ROOT / name, proj / name)
    for name in ("hooks", "overrides", "docs"):
        shutil.copytree(ROOT / name, proj / name, ignore=shutil.ignore_patterns("__pycache__"))
    if series is not None:
        shutil.copytree(series, proj / "series", symlinks=True)
    if node_modules:
        (proj / "node_modules").symlink_to(ROOT / "node_modules")
    return proj


def env(**extra) -> dict:
    e = dict(os.environ)
    e.update({"NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": EPOCH, "PYTHONPATH": str(ROOT)})
    e.update(extra)
    return e


def mkdocs(proj: Path, *args: str, timeout: int = 300, **envx) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", *args], cwd=proj, env=env(**envx),
                          capture_output=True, text=True, timeout=timeout)


HOSTS = ("mkdocs", "zensical")   # the two builds of the same sources (README: "Two hosts")


def build(proj: Path, out: Path, strict: bool = True, host: str = "mkdocs", **envx) -> subprocess.CompletedProcess:
    """Build the project as `mkdocs build` does, or as `make zensical` does (host="zensical")."""
    if host == "zensical":
        args = [sys.executable, str(ROOT / "zensical_adapter" / "build.py"), "--root", str(proj), "-d", str(out)]
        return subprocess.run(args + (["--strict"] if strict else []), cwd=proj, env=env(**envx),
                              capture_output=True, text=True, timeout=300)
    args = ["build", "-d", str(out)] + (["--strict"] if strict else [])
    return mkdocs(proj, *args, **envx)
