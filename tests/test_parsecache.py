"""The linter's cache of parsed posts (serieskit/parsecache.py): a second run gives the same output
as a first and as `--no-cache`; an edited post, an edited parser, a damaged or unwritable cache are
each parsed again or ignored, never a stale result or a traceback."""
from __future__ import annotations

import io
import os
import pickle
import shutil

import pytest

from conftest import ROOT, make_site
from serieskit import parsecache
from serieskit.cli import run

BADINPUT = ROOT / "tests" / "badinput"


def cli(root, *args):
    out, err = io.StringIO(), io.StringIO()
    code = run(["--root", str(root), "--today", "2026-06-01", "--format", "json", *args], out, err)
    return code, out.getvalue()


def cache_file(root):
    return root / parsecache.CACHE_DIR / parsecache.CACHE_FILE


def test_first_second_and_uncached_runs_agree_on_the_real_project(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "series", proj / "series")
    shutil.copy(ROOT / "conventions.yml", proj / "conventions.yml")
    first, second, plain = cli(proj), cli(proj), cli(proj, "--no-cache")
    assert first == second == plain
    assert cache_file(proj).is_file()


@pytest.mark.parametrize("case", sorted(p.name for p in BADINPUT.iterdir() if p.is_dir()))
def test_first_and_second_runs_agree_on_bad_input(tmp_path, case):
    root = make_site(tmp_path, overlay=BADINPUT / case)
    assert cli(root) == cli(root) == cli(root, "--no-cache")


def test_an_edited_post_is_parsed_again(tmp_path):
    root = make_site(tmp_path)
    post = root / "series" / "demo" / "hub.md"
    clean = cli(root)
    text = post.read_text(encoding="utf-8")
    stat = post.stat()
    post.write_text(text + "\n```python\nprint(1)\n", encoding="utf-8")     # an unclosed fence now
    os.utime(post, ns=(stat.st_atime_ns, stat.st_mtime_ns))                  # even with the same mtime
    edited = cli(root)
    assert edited != clean and edited == cli(root, "--no-cache")


def test_a_cache_from_another_parser_is_ignored(tmp_path, monkeypatch):
    root = make_site(tmp_path)
    cli(root)
    key, entries = pickle.loads(cache_file(root).read_bytes())
    poisoned = {rel: (digest, fm, None) for rel, (digest, fm, _) in entries.items()}   # bodies that would crash
    cache_file(root).write_bytes(pickle.dumps(("another parser", poisoned)))
    assert cli(root) == cli(root, "--no-cache")


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05garbage"])
def test_a_damaged_cache_is_ignored(tmp_path, damage):
    root = make_site(tmp_path)
    expected = cli(root, "--no-cache")
    cache_file(root).parent.mkdir(parents=True)
    cache_file(root).write_bytes(damage)
    assert cli(root) == expected and cli(root) == expected


def test_an_unwritable_cache_only_costs_time(tmp_path):
    root = make_site(tmp_path)
    (root / ".cache").write_text("a file where the cache folder would go", encoding="utf-8")
    assert cli(root) == cli(root, "--no-cache")
