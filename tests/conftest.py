import datetime as dt
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BASE_SITE = ROOT / "tests" / "rules" / "_site"
TODAY = dt.date(2026, 6, 1)


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


@pytest.fixture
def site_root(tmp_path):
    return make_site(tmp_path)
