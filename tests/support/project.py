"""The throw-away projects the tests lint and build, and the one date the tests take as today."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE_SITE = ROOT / "tests" / "rules" / "_site"
TODAY = dt.date(2026, 6, 1)
TODAY_ISO = TODAY.isoformat()   # as `--today` and `--date` take it, and as a post's frontmatter writes it


def epoch_of(day: dt.date) -> str:
    """`day` as SOURCE_DATE_EPOCH (midnight UTC)."""
    return str(int(dt.datetime.combine(day, dt.time(tzinfo=dt.UTC)).timestamp()))


# TODAY as SOURCE_DATE_EPOCH for builds and servers: staleness and sitemaps never depend on the calendar
EPOCH = epoch_of(TODAY)


def make_site(tmp_path: Path, overlay: Path | None = None, post: Path | None = None, name: str | None = None) -> Path:
    """A throw-away project: the real conventions.yml, the base test site, plus a fixture."""
    root = tmp_path / "proj"
    shutil.copytree(BASE_SITE, root)
    shutil.copy(ROOT / "conventions.yml", root / "conventions.yml")
    if overlay is not None:
        shutil.copytree(overlay, root, dirs_exist_ok=True, symlinks=True)
    if post is not None:
        shutil.copy(post, root / "series" / "demo" / (name or post.name))
    return root
