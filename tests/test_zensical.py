"""The Zensical build as an author runs it again after an edit (`make zensical` twice): Zensical keeps
a cache between builds, and what changed in a post, a manifest or a glossary reaches the pages. And
the pins of the adapter's reliances on Zensical and Material (zensical_adapter/upstream.py)."""
from __future__ import annotations

import yaml

import pytest

from serieskit.publish import csp
from support.sitebuild import build, make_project
from zensical_adapter import upstream


@pytest.mark.slow    # builds the fixture with Zensical twice (over a few seconds a test)
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


# --- the pins of zensical_adapter/upstream.py ----------------------------------------------------

def test_materials_stylesheet_still_has_the_search_box_rules():
    """1. The search box's rules come from Material's stylesheet, found by glob."""
    css = upstream.search_box_css()
    for part in (".md-search__form", ".md-search__input", ".md-search__output", ".md-search__overlay"):
        assert part in css, f"Material's stylesheet has no {part} rule"


def test_zensicals_inline_script_partials_are_where_the_policy_reads_them():
    """2. The policy hashes the theme's inline scripts from the partials in Zensical's templates."""
    templates = upstream.theme_templates()
    for name in csp.THEME_SCRIPTS:
        text = (templates / name).read_text(encoding="utf-8")
        assert text.count("<script>") == text.count("</script>") >= 1, name


@pytest.mark.slow    # one Zensical build of the fixture
def test_zensicals_link_check_warnings_are_counted_per_file(tmp_path):
    """3. Zensical's link check is read from its report: a page with a broken link is counted by name,
    and no warning is shown whole."""
    proj = make_project(tmp_path)
    (proj / "docs" / "broken.md").write_text("# 坏链接\n\n见[不存在的一页](nowhere.md)。\n", encoding="utf-8")
    r = build(proj, tmp_path / "out", strict=False, host="zensical")
    assert r.returncode == 0, r.stderr[-2000:]
    counted = [line for line in r.stderr.splitlines() if "warning(s) of its link check" in line]
    assert len(counted) == 1 and "broken.md: 1" in counted[0], r.stderr[-2000:]
    assert "page does not exist" not in r.stderr


def test_a_warning_in_another_format_is_shown_whole(capsys):
    """A report whose warnings the adapter cannot place hides nothing: it is shown as Zensical wrote it."""
    known = "Warning: page does not exist\n     ╭─[ a.md:3:1 ]\n"
    upstream.zensical_log(known, verbose=False)
    assert capsys.readouterr().err.startswith("INFO    -  Zensical: 1 warning(s) of its link check (a.md: 1)")
    changed = known + "WARNING: page does not exist (b.md, line 4)\n"
    upstream.zensical_log(changed, verbose=False)
    assert capsys.readouterr().err == changed


@pytest.mark.parametrize("after, kept", [
    ('<nav class="series-nav"><a href="../x/">下一篇</a></nav>\n  </div>\n</article>', "<p>正文</p>\n<div>图</div>"),
    ('<nav class="md-tags"><span class="md-tag">甲</span></nav>\n  </div>\n</article>', "<p>正文</p>\n<div>图</div>"),
    ("  </div>\n</article>", "<p>正文</p>\n<div>图</div>"),     # an indexed page: the search body's </div> left out
    ("</article>", "<p>正文</p>\n<div>图</div>"),                 # a page the search leaves out: its own </div> kept
])
def test_a_posts_feed_text_ends_where_the_page_adds_its_own(tmp_path, after, kept):
    """zensical_adapter/build.py `post_contents`: the text between the post header and what the page adds
    after it (previous / next links, Zensical's tag strip, the search body's end, the article's end)."""
    from types import SimpleNamespace
    from zensical_adapter.build import post_contents
    post = SimpleNamespace(rel="series/notes/solo.md", url_dir="notes/solo/")
    page = tmp_path / "notes" / "solo" / "index.html"
    page.parent.mkdir(parents=True)
    indexed = after != "</article>"
    page.write_text('<article class="md-content__inner md-typeset">\n'
                    + ('  <div class="series-search-body" data-pagefind-body>\n' if indexed else "")
                    + '<header class="series-post-header"><h1>题</h1></header>\n<p>正文</p>\n<div>图</div>\n' + after,
                    encoding="utf-8")
    assert post_contents(SimpleNamespace(published=lambda: [post]), tmp_path) == {post.rel: kept}
