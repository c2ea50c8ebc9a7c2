"""What an install from a wheel carries: every file of serieskit/ that is not Python (the rules' fixtures,
the search index's word splitter, the drawing's scripts and stylesheet) is listed in pyproject.toml's
package data, and each pattern there names files that exist. (A data file moved without its entry
is left out of a wheel while an editable install, which reads the tree, still finds it.)"""
from __future__ import annotations

import fnmatch
import subprocess
import tomllib

from support.project import ROOT

PACKAGE_DATA = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]


def _matches(rel: str, folder: str, pattern: str) -> bool:
    """`rel` (a path under the repository) is `pattern` of package `folder` (setuptools' glob: `**` any depth)."""
    if not rel.startswith(folder + "/"):
        return False
    inner = rel[len(folder) + 1:]
    return fnmatch.fnmatch(inner, pattern) or (pattern.startswith("**/") and fnmatch.fnmatch(inner, pattern[3:]))


def _tracked_data_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "serieskit"], cwd=ROOT, capture_output=True, check=True).stdout
    return [rel for rel in out.decode("utf-8").split("\0") if rel and not rel.endswith(".py")]


def test_every_data_file_of_the_engine_is_package_data():
    packages = {pkg.replace(".", "/"): patterns for pkg, patterns in PACKAGE_DATA.items()}
    left_out = [rel for rel in _tracked_data_files()
                if not any(_matches(rel, folder, p) for folder, patterns in packages.items() for p in patterns)]
    assert not left_out, f"not in pyproject.toml's package data, so not in a wheel: {left_out}"


def test_each_package_data_pattern_names_files():
    files = _tracked_data_files()
    empty = [(pkg, p) for pkg, patterns in PACKAGE_DATA.items() for p in patterns
             if not any(_matches(rel, pkg.replace(".", "/"), p) for rel in files)]
    assert not empty, f"package data that names no file (moved?): {empty}"
