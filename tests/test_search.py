"""The search index as the build writes it: `mkdocs build` indexes the site itself (hooks/serieshooks/search.py);
what the indexer cannot read, or an indexer that is not installed, stops the build with a message that
names the file or the install command, never a traceback. The reader's side is in
tests/test_search_browser.py."""
from __future__ import annotations

import pytest

from support.sitebuild import ROOT, build, make_project

from serieskit.publish import searchindex as search


def _no_traceback(r):
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr[-3000:]


@pytest.mark.slow
def test_a_page_the_indexer_cannot_read_fails_the_build_naming_it(tmp_path):
    proj = make_project(tmp_path)
    # a hand-written HTML page of docs/, marked for the index, in GBK: Pagefind would skip it silently
    (proj / "docs" / "legacy.html").write_bytes('<html><body><main data-pagefind-body>旧页面</main></body></html>'
                                                .encode("gbk"))
    r = build(proj, tmp_path / "out", strict=False)
    assert r.returncode != 0
    assert "the search indexer cannot read these pages: legacy.html (byte" in r.stderr and "not UTF-8" in r.stderr
    _no_traceback(r)


@pytest.mark.slow
def test_a_missing_indexer_stops_the_build_with_the_install_command(tmp_path):
    proj = make_project(tmp_path)
    # what an environment without the binary looks like: the package's own lookup fails
    fake = tmp_path / "fake" / "pagefind_bin_extended"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("def get_executable():\n    raise FileNotFoundError('Could not find any of "
                                      "[pagefind_extended]')\n", encoding="utf-8")
    from support.sitebuild import mkdocs
    r = mkdocs(proj, "build", "-d", str(tmp_path / "out"), PYTHONPATH=f"{fake.parent}:{ROOT}")
    assert r.returncode != 0
    assert 'pip install "pagefind[extended]"' in r.stderr, r.stderr[-2000:]
    _no_traceback(r)


@pytest.mark.slow
def test_a_build_with_errors_under_strict_writes_no_index_and_fails(tmp_path):
    proj = make_project(tmp_path)
    post = proj / "series" / "demo" / "first.md"
    post.write_text(post.read_text(encoding="utf-8").replace("title:", "titel:", 1), encoding="utf-8")
    r = build(proj, tmp_path / "out", strict=True)
    assert r.returncode != 0
    assert not (tmp_path / "out" / "pagefind").exists()


def test_segmentation_marks_only_text_and_metadata(tmp_path):
    site, staged = tmp_path / "site", tmp_path / "staged"
    (site / "a").mkdir(parents=True)
    page = ('<html lang="zh"><body><div data-pagefind-body><span hidden data-pagefind-meta="terms:全双工对话, RVQ">'
            '</span><h2 id="全双工对话">全双工对话的延迟</h2><a href="#全双工对话">全双工</a> KV cache</div></body></html>')
    (site / "a" / "index.html").write_text(page, encoding="utf-8")
    pages = search.readable(site)
    assert list(pages) == ["a/index.html"]
    search.segment_pages(pages, staged)
    out = (staged / "a" / "index.html").read_text(encoding="utf-8")
    z = "\u200b"
    assert 'id="全双工对话"' in out and 'href="#全双工对话"' in out, "ids and links stay as built"
    assert f'data-pagefind-meta="terms:全{z}双{z}工{z}对话, RVQ"' in out
    assert f">全{z}双{z}工{z}对话{z}的{z}延迟</h2>" in out and "KV cache" in out
    assert out.replace(z, "") == page


def _index(pages: dict[str, str], tmp) -> dict[str, bytes]:
    """The index Pagefind writes for these pages (path -> text), each of its files by path."""
    staged, bundle = tmp / "staged", tmp / "bundle"
    search.segment_pages(pages, staged)
    r = search.run_indexer(search.executable(), staged, bundle)
    assert r.returncode == 0, r.stderr[-2000:]
    return {p.relative_to(bundle).as_posix(): p.read_bytes() for p in sorted(bundle.rglob("*")) if p.is_file()}


def test_the_index_is_the_same_without_the_drawings(tmp_path):
    """The indexer reads each page without its drawn diagrams and formulas, which it excludes
    (`_indexed_part`); what it writes is what it writes for the whole page. The page is as the build
    writes one (the output gate's markup: a formula in a paragraph is inline, a block one is not)."""
    page = ('<!doctype html><html lang="zh"><head><title>t</title></head><body><nav>导航 很长</nav>'
            '<article data-pagefind-body><span hidden data-pagefind-meta="terms:全双工对话"></span>'
            '<div class="series-post-header">2026-01-01 · 约 5 分钟</div>'
            '<h2 id="x">延迟<a class="headerlink" href="#x">¶</a></h2>'
            '<p>公式<span class="arithmatex"><span class="katex"><math><mi>x</mi></math>'
            '<span class="katex-html"><span class="mord">x</span></span></span></span>表示批大小，</p>'
            '<div class="arithmatex"><span class="katex-display"><span class="katex">'
            '<span class="arithmatex">嵌套</span>y</span></span></div><p>全双工对话的延迟。</p>'
            '<div class="mermaid"><svg id="m1"><g><foreignObject><div><span>预填充</span></div></foreignObject>'
            '</g></svg></div><pre class="mermaid"><code>graph LR</code></pre><p>KV cache 之后</p>'
            '<div class="series-sister">姊妹篇 <div class="series-nav">上一篇</div></div></article>'
            '<footer>页脚</footer></body></html>')
    cut = search._indexed_part(page)
    for gone in ("katex", "mermaid", "嵌套", "预填充", "导航"):
        assert gone not in cut
    assert "表示批大小" in cut and "KV cache 之后" in cut and "series-sister" in cut
    assert _index({"a/index.html": cut}, tmp_path / "cut") == _index({"a/index.html": page}, tmp_path / "whole")


def test_a_page_without_drawings_reaches_the_indexer_as_written():
    page = '<html lang="zh"><body><div data-pagefind-body><p>段落<div>未闭合的 <b>标记</div></body></html>'
    assert search._indexed_part(page) == page


def test_the_indexer_thread_reports_its_failure_only_where_nothing_else_stops_the_build(monkeypatch, tmp_path):
    """hooks/serieshooks/search.py: the indexer runs beside the feeds; its reason to fail stops the build
    as a message (no traceback), unless the build already stops for another reason."""
    import logging

    from mkdocs.exceptions import PluginError
    monkeypatch.syspath_prepend(str(ROOT / "hooks"))
    from serieshooks import search as hook
    from serieskit.publish.searchindex import SearchIndexError
    log = logging.getLogger("test")

    def failing(exc):
        def write_index(site_dir):
            raise exc
        monkeypatch.setattr(hook, "write_index", write_index)
        return hook.start(tmp_path)

    with pytest.raises(PluginError, match="no binary"):
        hook.finish(failing(SearchIndexError("no binary")), log)
    hook.finish(failing(SearchIndexError("no binary")), log, report=False)       # the other reason is named
    with pytest.raises(OSError):
        hook.finish(failing(OSError("disk")), log)
    hook.finish(failing(OSError("disk")), log, report=False)
