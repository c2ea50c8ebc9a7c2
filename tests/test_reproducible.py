"""Reproducible builds: with SOURCE_DATE_EPOCH set, two builds of the same sources are byte-identical,
whatever folder they are built in, whatever the files' modification times and Python's hash seed; and
the "today" of staleness comes from SOURCE_DATE_EPOCH (or the CLI's --today), never from the calendar.
"""
from __future__ import annotations

import datetime as dt
import gzip
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from support.sitebuild import EPOCH, ROOT, build, make_project, mkdocs
import pytest

pytestmark = pytest.mark.slow   # every test builds the real site or the fixture at least twice (over a few seconds a test)

STALE = "可能已过时"


def epoch_of(day: dt.date) -> str:
    return str(int(dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC).timestamp()))


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def real_site_copy(dest: Path) -> Path:
    """The project as committed (its sources, not build output or caches), in a folder of its own."""
    files = subprocess.run(["git", "ls-files", "-z", "--", "mkdocs.yml", "conventions.yml", "hooks", "overrides",
                            "docs", "series"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for rel in filter(None, (f.decode() for f in files)):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / rel)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    return dest


def assert_identical(a: Path, b: Path):
    fa, fb = site_files(a), site_files(b)
    assert sorted(fa) == sorted(fb), set(fa) ^ set(fb)
    differ = [rel for rel in fa if fa[rel] != fb[rel]]
    assert not differ, differ
    return fa


def test_two_builds_of_the_real_site_are_byte_identical(tmp_path):
    """Two checkouts in different folders, built with different hash seeds, file times, time zones and locales."""
    one = real_site_copy(tmp_path / "one")
    two = real_site_copy(tmp_path / "checkout-two")
    for p in two.rglob("*"):
        if p.is_file() and not p.is_symlink():
            os.utime(p, (1_000_000_000, 1_000_000_000))       # 2001: as if checked out long ago
    r1 = mkdocs(one, "build", "-d", str(tmp_path / "site1"), PYTHONHASHSEED="1", TZ="Asia/Shanghai", LC_ALL="C.UTF-8")
    r2 = mkdocs(two, "build", "-d", str(tmp_path / "site2"), PYTHONHASHSEED="2", TZ="America/Los_Angeles", LC_ALL="C")
    assert r1.returncode == 0, r1.stderr[-3000:]
    assert r2.returncode == 0, r2.stderr[-3000:]
    files = assert_identical(tmp_path / "site1", tmp_path / "site2")
    # nothing of the machine leaks into the site: no build folder, no clock
    for rel, data in files.items():
        if rel.endswith((".html", ".xml", ".json", "_headers")):
            text = data.decode("utf-8")
            assert str(tmp_path) not in text and str(ROOT) not in text, rel
    day = dt.datetime.fromtimestamp(int(EPOCH), dt.UTC).date().isoformat()
    sitemap = files["sitemap.xml"].decode()
    assert set(re.findall(r"<lastmod>([^<]+)</lastmod>", sitemap)) == {day}
    with gzip.open(tmp_path / "site1" / "sitemap.xml.gz") as fh:
        assert fh.read().decode() == sitemap
    assert int.from_bytes(files["sitemap.xml.gz"][4:8], "little") in (0, int(EPOCH))   # gzip header mtime


def test_a_second_build_in_the_same_folder_is_identical(tmp_path):
    proj = make_project(tmp_path)
    assert build(proj, tmp_path / "a").returncode == 0
    (proj / "series" / "demo" / "first.md").touch()            # a new modification time, same bytes
    assert build(proj, tmp_path / "b").returncode == 0
    assert_identical(tmp_path / "a", tmp_path / "b")


def test_staleness_follows_source_date_epoch_through_the_build(tmp_path):
    """first.md was last updated 2026-05-08; the demo series goes stale after 180 days: on 2026-11-04 it is
    180 days old (fresh), on 2026-11-05 181 (stale). second.md (2026-05-20) is fresh on both days."""
    proj = make_project(tmp_path)
    pages = {}
    for day in (dt.date(2026, 11, 4), dt.date(2026, 11, 5)):
        out = tmp_path / day.isoformat()
        r = mkdocs(proj, "build", "--strict", "-d", str(out), SOURCE_DATE_EPOCH=epoch_of(day))
        assert r.returncode == 0, r.stderr[-3000:]
        first = (out / "demo" / "first" / "index.html").read_text(encoding="utf-8")
        second = (out / "demo" / "second" / "index.html").read_text(encoding="utf-8")
        pages[day.day] = (first, second, r.stderr)
    (fresh, second4, log4), (stale, second5, log5) = pages[4], pages[5]
    assert STALE not in fresh and "series-banner--stale" not in fresh
    assert STALE in stale and "series-banner--stale" in stale and "本文最后更新于 2026-05-08" in stale
    assert STALE not in second4 and STALE not in second5
    assert "first.md:5:10: TML003" not in log4 and "first.md:5:10: TML003" in log5


def lint(root: Path, *args: str, **envx) -> subprocess.CompletedProcess:
    e = {**os.environ, **envx}
    if "SOURCE_DATE_EPOCH" not in envx:
        e.pop("SOURCE_DATE_EPOCH", None)
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "lint.py"), "--root", str(root), "--strict", *args],
                          capture_output=True, text=True, env=e)


def test_the_cli_takes_today_from_the_flag_or_source_date_epoch(tmp_path):
    proj = make_project(tmp_path)
    assert lint(proj, "--today", "2026-11-04").returncode == 0
    r = lint(proj, "--today", "2026-11-05")
    assert r.returncode == 1 and "series/demo/first.md:5:10: TML003" in r.stdout
    assert lint(proj, SOURCE_DATE_EPOCH=epoch_of(dt.date(2026, 11, 4))).returncode == 0
    assert "first.md:5:10: TML003" in lint(proj, SOURCE_DATE_EPOCH=epoch_of(dt.date(2026, 11, 5))).stdout
    # the flag wins over the environment
    assert lint(proj, "--today", "2026-11-04", SOURCE_DATE_EPOCH=epoch_of(dt.date(2027, 1, 1))).returncode == 0


def test_a_malformed_source_date_epoch_is_an_error_not_the_calendar(tmp_path):
    proj = make_project(tmp_path)
    r = lint(proj, SOURCE_DATE_EPOCH="2026-11-05")
    assert r.returncode == 2 and "SOURCE_DATE_EPOCH" in r.stderr and "Traceback" not in r.stderr, r.stderr
    r = mkdocs(proj, "build", "-d", str(tmp_path / "out"), SOURCE_DATE_EPOCH="yesterday")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "SOURCE_DATE_EPOCH" in out and "Traceback" not in out, out[-3000:]


def test_the_speedups_switch_changes_nothing_in_the_site(tmp_path):
    """SERIES_SPEEDUPS=0 (hooks/serieshooks/speedups.py: no gc.freeze, no serve memo) builds the same bytes."""
    proj = make_project(tmp_path)
    assert build(proj, tmp_path / "on").returncode == 0
    r = mkdocs(proj, "build", "--strict", "-d", str(tmp_path / "off"), SERIES_SPEEDUPS="0")
    assert r.returncode == 0, r.stderr[-3000:]
    assert_identical(tmp_path / "on", tmp_path / "off")


# Shapes mermaid draws through rough.js even in its classic look (stadium, circle, cylinder, hexagon,
# flag, rhombus): their paths take random control points unless the seed is fixed.
SHAPES = ('flowchart LR\n  M0(["指标：MFU / TGS"]) --> B{判断} --> C((圆)) --> D[(库)] --> E{{六边}} --> F>旗]\n'
          '  F --> G([体育场]) --> H[/平行/]\n')


def test_a_diagram_is_drawn_the_same_by_two_builds_with_empty_caches(tmp_path, monkeypatch):
    """The build's tests share one drawing cache, so two builds there compare one drawing with itself:
    here each drawing is made twice, by two drawers with caches of their own."""
    from markupsafe import escape

    from serieskit.publish.draw import Drawer
    page = f'<pre class="mermaid"><code>{escape(SHAPES)}</code></pre><span class="arithmatex">\\(\\frac{{a}}{{b}}\\)</span>'
    drawn = []
    for run in ("one", "two"):
        monkeypatch.setenv("SERIES_DRAW_CACHE", str(tmp_path / run))
        d = Drawer(ROOT, None, "build")
        try:
            out = d.substitute(page)
        finally:
            d.close()
        assert not out.errors and d.stats == {"diagrams drawn": 1, "formulas drawn": 1}, (out.errors, d.stats)
        drawn.append(out.html)
    one, two = drawn
    at = next((i for i, (a, b) in enumerate(zip(one, two)) if a != b), min(len(one), len(two)))
    assert one == two, f"the same diagram drawn twice differs at {at}:\n{one[at - 200:at + 100]}\n{two[at - 200:at + 100]}"
