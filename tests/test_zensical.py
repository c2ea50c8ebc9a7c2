"""The Zensical build as an author runs it again after an edit (`make zensical` twice): Zensical keeps
a cache between builds, and what changed in a post, a manifest or a glossary reaches the pages."""
from __future__ import annotations

import yaml

import pytest

from support.sitebuild import build, make_project

pytestmark = pytest.mark.slow   # builds the fixture with Zensical twice (over a few seconds a test)


def test_a_second_build_shows_each_edit(tmp_path):
    proj = make_project(tmp_path)
    out = tmp_path / "out"
    assert build(proj, out, strict=False, host="zensical").returncode == 0
    assert (proj / ".zensical" / ".cache").is_dir()
    demo = proj / "series" / "demo"
    post = demo / "first.md"
    text = post.read_text(encoding="utf-8")
    head_end = text.index("\n---", 4) + 4
    post.write_text(text[:head_end] + "\n\n这一句是第二次构建前加上的。\n" + text[head_end:], encoding="utf-8")
    manifest = yaml.safe_load((demo / "series.yml").read_text(encoding="utf-8"))
    manifest["title"] = "改过名字的演示系列"
    (demo / "series.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    r = build(proj, out, strict=False, host="zensical")
    assert r.returncode == 0, r.stderr[-2000:]
    first = (out / "demo" / "first" / "index.html").read_text(encoding="utf-8")
    second = (out / "demo" / "second" / "index.html").read_text(encoding="utf-8")
    assert "这一句是第二次构建前加上的。" in first
    assert "改过名字的演示系列" in first and "改过名字的演示系列" in second   # header of an unedited post too
