"""The series site built from a small fixture project: URLs, generated pages, series order,
prev / next, post header, figures, diagrams, glossary tooltips, feed, Chinese search, assets."""
import json
from html import unescape as html_unescape
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from support import drawings
from support.search_harness import pagefind_pages
from support.sitebuild import HOSTS, ROOT, build, make_project

pytestmark = pytest.mark.slow   # builds the fixture site with both hosts (over a few seconds a test)

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module", params=HOSTS)
def site(request, tmp_path_factory):
    """The fixture project built by each host (MkDocs; Zensical, `make zensical`)."""
    tmp = tmp_path_factory.mktemp(f"site-{request.param}")
    proj = make_project(tmp)
    out = tmp / "out"
    r = build(proj, out, host=request.param)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def html(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def test_urls_are_stable_ascii_and_drafts_are_left_out(site):
    for rel in ("index.html", "demo/index.html", "demo/first/index.html", "demo/second/index.html",
                "notes/solo/index.html", "tags/index.html", "archive/index.html", "rules/index.html",
                "feed.xml", "demo/assets/fig.svg", "assets/vendor/katex/katex-swap.min.css",
                "assets/vendor/katex/fonts/KaTeX_Main-Regular.woff2", "assets/stylesheets/palette.css"):
        assert (site / rel).is_file(), rel
    assert not (site / "demo" / "draft").exists()
    assert "还在写的草稿" not in html(site, "demo/index.html")
    # the build draws diagrams and formulas: of the vendored libraries only KaTeX's stylesheet and fonts
    vendored = sorted(p.relative_to(site).as_posix() for p in (site / "assets" / "vendor").rglob("*") if p.is_file())
    assert vendored and all(v == "assets/vendor/katex/katex-swap.min.css" or
                            re.fullmatch(r"assets/vendor/katex/fonts/KaTeX_[\w-]+\.woff2", v) for v in vendored), vendored


def test_no_page_loads_a_drawing_script_and_katex_css_only_where_a_formula_is(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 8
    for f in pages:
        page = f.read_text(encoding="utf-8")
        rel = f.relative_to(site).as_posix()
        assert drawings.drawing_scripts(page) == [], rel
        assert drawings.undrawn(page) == [], rel
        head = page.split("</head>", 1)[0]
        has_formula = 'class="arithmatex"' in page
        assert ("assets/vendor/katex/katex-swap.min.css" in head) == has_formula, rel
    assert 'class="arithmatex"' in html(site, "demo/first/index.html")


def test_series_index_lists_posts_and_planned_in_order(site):
    page = html(site, "demo/index.html")
    items = re.findall(r'<li class="series-index__item([^"]*)"[^>]*>.*?</li>', page, re.S)
    titles = re.findall(r'<li class="series-index__item[^"]*"[^>]*>.*?(?:<a href="[^"]*">([^<]*)</a>|'
                        r'<span class="series-planned">([^<]*)<)', page, re.S)
    names = [a or b for a, b in titles]
    assert names == ["第一篇：效率指标", "CUDA Graph 实战", "第二篇：投机解码", "量化推理实战"]
    assert ["--planned" in i for i in items] == [False, True, False, True]
    assert page.count('<span class="series-badge">在做</span>') == 2
    assert "2026-03-20" in page and "分钟" in page and "第一篇的摘要。" in page


def test_series_index_carries_the_drawn_map_with_real_links(site):
    """The series map is drawn by the build: published posts are SVG links to their pages (no script),
    planned ones are no links and say 在做 on a line of their own."""
    [m] = drawings.diagrams(html(site, "demo/index.html"))
    assert m.links == [("first/", "1. 第一篇"), ("second/", "3. 第二篇")], m.links
    assert m.labels == ["1. 第一篇", "2. CUDA Graph 实战\n（在做）", "3. 第二篇", "5. 量化推理实战\n（在做）"], m.labels
    for href, _ in m.links:
        assert (site / "demo" / href / "index.html").is_file(), href


def test_prev_next_follow_the_series(site):
    first, second = html(site, "demo/first/index.html"), html(site, "demo/second/index.html")
    assert re.search(r'class="series-nav__next" href="\.\./second/"', first)
    assert "series-nav__prev" not in first
    assert re.search(r'class="series-nav__prev" href="\.\./first/"', second)
    assert "series-nav__next" not in second  # the draft after it is not published


def test_materials_footer_takes_the_series_neighbours_from_on_nav(site):
    """Material's footer reads Page.previous_page / next_page, which on_nav sets (an upstream reliance:
    hooks/serieshooks/upstream.py, 4.): the footer of a post links its series neighbours."""
    first, second = html(site, "demo/first/index.html"), html(site, "demo/second/index.html")
    assert re.search(r'<a href="\.\./second/" class="md-footer__link md-footer__link--next"', first)
    assert re.search(r'<a href="\.\./first/" class="md-footer__link md-footer__link--prev"', second)


def test_post_header(site):
    page = html(site, "demo/first/index.html")
    header = re.search(r'<header class="series-post-header">.*?</header>', page, re.S).group(0)
    assert "<h1>第一篇：效率指标</h1>" in header
    assert "Qian, Cheng" in header and "2026-03-20" in header and "最后更新" in header and "2026-05-08" in header
    # one numbering: the post's `order`, out of the series' published and planned places
    assert re.search(r"第 1 篇<span[^>]*>（全系列 4 篇，已发布 2 篇）</span>", header), header
    assert re.search(r"约 [\d,]+ 字 · 阅读约 \d+ 分钟", header)
    tag_links = re.findall(r'class="series-tag" href="([^"]+)"', header)
    assert tag_links == ["../../tags/#tag-%E6%8C%87%E6%A0%87", "../../tags/#tag-%E6%8E%A8%E7%90%86"]
    tags = html(site, "tags/index.html")
    assert 'id="tag-指标"' in tags and 'id="tag-推理"' in tags


def test_sister_block_banner_figure_math_and_diagram(site):
    page = html(site, "demo/first/index.html")
    sister = re.search(r'<nav aria-label="姊妹篇" class="series-sister">(.*?)</nav>', page, re.S).group(1)
    assert '<a href="../">演示系列导航</a>' in sister and '<a href="../second/">第二篇</a>' in sister
    assert 'CUDA Graph 实战<span class="series-badge">在做</span>' in sister
    assert re.search(r'<div class="series-banner" role="note">⚠️ 时效声明（最后更新：2026-05-08）', page)
    fig = re.search(r'<figure class="series-figure">(.*?)</figure>', page, re.S).group(1)
    assert 'src="../assets/fig.svg"' in fig
    assert re.search(r"<figcaption>图 1：一张示意图，<code>code</code> 也可以出现在图注里</figcaption>", fig)
    # the formulas drawn by KaTeX (HTML and MathML), inline and display, as the author wrote them
    assert [(f.display, f.tex, f.mathml) for f in drawings.formulas(page)] == [
        (False, "T = N / t", True), (True, r"\text{MFU} = \frac{6 N D}{t \cdot P}", True)]
    assert re.search(r'<span class="arithmatex"><span class="katex">', page)
    assert re.search(r'<div class="arithmatex"><span class="katex-display"><span class="katex">', page)
    # the diagram drawn to inline SVG, with the palette's classes (conventions.yml) on the author's nodes
    [d] = drawings.diagrams(page)
    assert d.labels == ["请求", "调度", "GPU"]
    assert (d.name, d.description) == ("请求的三步", "一个请求先经过调度，再到 GPU。")   # accTitle, accDescr
    assert "yellow" in d.node_classes["A"] and "pink" in d.node_classes["B"]
    assert d.node_fill == {"A": "#FEF3C7", "B": "#FCE7F3", "C": ""}
    rules = drawings.css_rules(d.css)
    assert "fill:rgb(254, 243, 199)!important;stroke:rgb(245, 158, 11)!important;color:rgb(31, 41, 55)" in rules[".yellow>*"]
    assert "fill:rgb(252, 231, 243)!important;stroke:rgb(236, 72, 153)!important;color:rgb(31, 41, 55)" in rules[".pink>*"]


def test_glossary_tooltips_first_occurrence_in_prose_only(site):
    first = html(site, "demo/first/index.html")
    assert first.count('<abbr class="series-term" title="Tensor Parallelism（TP）：') == 1
    body = first.split('<div class="series-banner"')[0]
    assert '<abbr class="series-term" title="Tensor Parallelism（TP）：把单层的矩阵' in body  # first: in the lead
    assert "<code>投机解码</code>" in first                                             # not inside code
    second = html(site, "demo/second/index.html")
    assert second.count("Speculative Decoding（SD）") == 1
    assert second.count('title="Key-Value Cache：') == 1
    assert "<h2 id=" in second and "<abbr" not in re.search(r"<h2.*?</h2>", second, re.S).group(0)


def test_a_feed_entry_is_the_posts_text_and_nothing_the_theme_adds(site):
    """Both hosts: each entry's content is the post's text, without the page's header, previous / next
    links, tag strip or search wrapper (the tagged standalone post above all: Zensical writes its tag
    strip after the text), and its elements close as they open."""
    from html.parser import HTMLParser

    class Balance(HTMLParser):
        VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

        def __init__(self):
            super().__init__()
            self.open, self.stray = [], []

        def handle_starttag(self, tag, attrs):
            if tag not in self.VOID:
                self.open.append(tag)

        def handle_startendtag(self, tag, attrs):
            pass

        def handle_endtag(self, tag):
            if self.open and self.open[-1] == tag:
                self.open.pop()
            else:
                self.stray.append(tag)

    root = ET.fromstring((site / "feed.xml").read_bytes())
    for e in root.findall(f"{ATOM}entry"):
        content = e.findtext(f"{ATOM}content")
        for theirs in ("md-tags", "series-post-header", "series-nav", "data-pagefind", "series-search-body"):
            assert theirs not in content, (e.findtext(f"{ATOM}title"), theirs)
        parsed = Balance()
        parsed.feed(content)
        assert not parsed.stray and not parsed.open, (e.findtext(f"{ATOM}title"), parsed.stray, parsed.open)


def test_feed_is_valid_atom(site):
    root = ET.fromstring((site / "feed.xml").read_bytes())
    assert root.tag == f"{ATOM}feed"
    for child in ("id", "title", "updated", "author"):
        assert root.find(f"{ATOM}{child}") is not None, child
    entries = root.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert sorted(titles) == sorted(["第一篇：效率指标", "第二篇：投机解码", "独立文章：不属于任何系列"])
    ids = set()
    for e in entries:
        for child in ("id", "title", "updated", "published"):
            assert e.findtext(f"{ATOM}{child}"), child
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e.findtext(f"{ATOM}updated"))
        link = e.find(f"{ATOM}link")
        assert link is not None and link.get("href").startswith("http")
        ids.add(e.findtext(f"{ATOM}id"))
    assert len(ids) == len(entries)
    assert 'type="application/atom+xml"' in html(site, "index.html")


def test_every_page_but_not_found_carries_a_link_preview(site):
    """Both hosts give every page a reader can share its Open Graph card, the generated lists
    (标签, 归档, 写作规范) too: one page plan decides it (serieskit/publish/plan.py)."""
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert "tags/index.html" in pages and "rules/index.html" in pages
    missing = [rel for rel in pages if rel != "404.html" and 'property="og:title"' not in html(site, rel)]
    assert not missing, missing


def test_search_index_holds_the_posts_and_pages_and_nothing_else(site):
    assert not (site / "search").exists(), "Material's search index is not built"
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["zh"]
    pages = pagefind_pages(site)
    # posts and hand-written pages; not the draft, the home page, the series index, tags, archive, rules
    assert sorted(pages) == ["/about/", "/demo/first/", "/demo/second/", "/notes/solo/", "/performance/"], sorted(pages)
    assert entry["languages"]["zh"]["page_count"] == len(pages)
    second = pages["/demo/second/"]
    assert second["meta"]["title"] == "第二篇：投机解码" and second["meta"]["section"] == "演示系列"
    # every spelling of the glossary terms the glossary names for this post, as searchable metadata
    assert second["meta"]["terms"] == "投机解码, Speculative Decoding, SD", second["meta"]
    assert "terms" not in pages["/demo/first/"]["meta"]
    assert pages["/notes/solo/"]["meta"]["section"] == "随笔"
    first = pages["/demo/first/"]["content"]
    assert "¶" not in first, "permalink marks are not indexed"
    assert "阅读约" not in first and "发布于" not in first, "the post header (dates, reading time) is not indexed"
    assert "graph" not in first, "diagram sources are not indexed"
    # Chinese is split into words where the reader's browser splits a query (Intl.Segmenter):
    # "投机解码" is asked for as 投机 + 解码, so the index holds those two words
    words = pages["/demo/second/"]["content"].split("\u200b")
    assert "投机" in words and "解码" in words and "投机解码" not in words, words[:40]
    assert pages["/demo/second/"]["raw_meta"]["terms"].startswith("投机\u200b解码, ")
    for unused in ("pagefind-ui.js", "pagefind-component-ui.js", "pagefind-modular-ui.js", "pagefind-highlight.js"):
        assert not (site / "pagefind" / unused).exists(), unused


def test_search_box_is_in_the_header_and_starts_nothing_of_materials_search(site):
    page = html(site, "demo/first/index.html")
    assert 'data-series-search' in page and 'class="md-search__input"' in page
    assert 'data-md-component="search"' not in page and 'name="search"' not in page
    assert 'for="__search"' in page and "search.js" in page


ALLOWED_JS_URLS = {
    # Material's fallback when no global `mermaid` exists, for a `pre.mermaid` left to the browser: the
    # build draws every diagram (a page has none), and in the fallback (SERIES_DRAW=browser) our loader
    # defines one first (the browser suite records every request and proves it is never fetched).
    "https://unpkg.com/mermaid@11/dist/mermaid.min.js",
    # Zensical's bundle (0.0.73): the same fallback for its mermaid, and loaders for features this site
    # does not use (runnable `pyodide` code blocks with the ace editor; the glightbox image viewer,
    # a plugin not configured here). The browser suite, run on the Zensical build too, records every
    # request and proves none of these is fetched.
    "https://unpkg.com/mermaid@12/dist/mermaid.min.js",
    "https://unpkg.com/pyodide@314.0.2/pyodide.js",
    "https://unpkg.com/ace-builds@1.44.0/src-noconflict/ace.js",
    "https://unpkg.com/glightbox@3/dist/js/glightbox.min.js",
    "https://unpkg.com/glightbox@3/dist/css/glightbox.min.css",
}


def test_no_asset_is_loaded_from_another_host(site):
    problems = []
    for p in site.rglob("*"):
        if p.suffix not in (".html", ".css", ".js", ".mjs"):
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        if p.suffix == ".html":
            for m in re.finditer(r"<(script|link|img|iframe|source|video|audio|embed)\b[^>]*?\b(src|href)=[\"']((?:https?:)?//[^\"']+)", text, re.I):
                tag, _, url = m.groups()
                if tag.lower() == "link" and re.search(r'rel="(canonical|alternate)"', m.group(0)):
                    continue
                if not url.startswith("http://127.0.0.1:8000/"):
                    problems.append(f"{p.relative_to(site)}: <{tag}> {url}")
        elif p.suffix == ".css":
            for m in re.finditer(r"(?:url\(\s*['\"]?|@import\s+['\"])((?:https?:)?//[^'\")\s]+)", text):
                problems.append(f"{p.relative_to(site)}: {m.group(1)}")
        else:
            for m in re.finditer(r"['\"`](https?://[^'\"`\s]+\.(?:m?js|css|woff2?|ttf))['\"`]", text):
                if m.group(1) not in ALLOWED_JS_URLS:
                    problems.append(f"{p.relative_to(site)}: {m.group(1)}")
    assert not problems, "\n".join(problems)


def test_no_google_fonts(site):
    page = html(site, "index.html")
    assert "fonts.googleapis.com" not in page and "fonts.gstatic.com" not in page


def test_rules_page_lists_every_rule(site):
    from serieskit.lint.rules import REGISTRY
    page = html(site, "rules/index.html")
    for code, rule in REGISTRY.items():
        assert f'id="{code.lower()}"' in page, code
        assert rule.slug in page
    assert "#FEF3C7" in page and "#3B82F6" in page
    # a tag named in a rule's prose is shown as text, never parsed as an element that eats the sentence
    main = page.split('<div class="md-content"', 1)[1]
    assert "<figure" not in main and "<figcaption" not in main
    assert "&lt;figure&gt; with &lt;figcaption&gt;" in main
    # every bad / good example is a highlighted code block (Pygments' Markdown lexer)
    examples = sum(bool(r.doc_sections().get(k)) for r in REGISTRY.values() for k in ("bad", "good"))
    assert main.count('<div class="highlight"><pre><span></span><code>') == examples > 60
    # the examples are the rules' fixtures (serieskit/lint/rules/fixtures/<CODE>/bad.md, good.md): one source
    assert '![<span class="nt">零个空格</span>](<span class="na">assets/fig.svg</span>)' in main
    assert "expect:" not in main and "expect-line" not in main


def test_home_and_archive(site):
    home = html(site, "index.html")
    assert "演示系列导航" in home and "第二篇：投机解码" in home
    latest = home[home.index('class="series-latest"'):]     # the list (the head's JSON-LD names them too)
    assert latest.index("第二篇：投机解码") < latest.index("第一篇：效率指标")  # latest first
    archive = html(site, "archive/index.html")
    assert archive.index("2026 年 5 月") < archive.index("2026 年 3 月") < archive.index("2026 年 2 月")


def test_csp_meta_matches_headers_file(site):
    headers = (site / "_headers").read_text(encoding="utf-8")
    policy = re.search(r"Content-Security-Policy: (.*)", headers).group(1)
    assert "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy.split("style-src")[0]
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
        assert m, page
        meta = html_unescape(m.group(1))
        assert policy.startswith(meta), page


def test_every_internal_link_in_page_content_resolves(site):
    """The generated lists (series index, tags, archive) write the posts' URLs themselves instead of
    letting MkDocs resolve .md links: every link in every page's article must land on a built file,
    and its #fragment on an id of that page."""
    from html.parser import HTMLParser
    from urllib.parse import unquote, urldefrag, urljoin

    class Article(HTMLParser):
        def __init__(self):
            super().__init__()
            self.depth, self.hrefs, self.ids = 0, [], set()

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if a.get("id"):
                self.ids.add(a["id"])
            if tag == "article":
                self.depth += 1
            if self.depth and tag == "a" and a.get("href"):
                self.hrefs.append(a["href"])

        def handle_endtag(self, tag):
            if tag == "article" and self.depth:
                self.depth -= 1

    parsed: dict[Path, Article] = {}

    def parse(p: Path) -> Article:
        if p not in parsed:
            parsed[p] = Article()
            parsed[p].feed(p.read_text(encoding="utf-8"))
        return parsed[p]

    checked = 0
    for page in sorted(site.rglob("*.html")):
        base = "http://site/" + page.relative_to(site).as_posix()
        for href in parse(page).hrefs:
            url, frag = urldefrag(urljoin(base, href))
            if not url.startswith("http://site/"):
                continue   # another host: the reference lists of the posts
            target = site / unquote(url[len("http://site/"):])
            if target.is_dir() or url.endswith("/"):
                target = target / "index.html"
            assert target.is_file(), f"{page.relative_to(site)}: {href} -> {target.relative_to(site)} is not built"
            if frag and target.suffix == ".html":
                assert unquote(frag) in parse(target).ids, f"{page.relative_to(site)}: {href}: no #{frag} there"
            checked += 1
    assert checked > 50
    for rel in ("demo/index.html", "tags/index.html", "archive/index.html"):
        assert re.search(r'<a href="(\.\./)?(demo/)?first/">', html(site, rel)), rel


def test_one_table_describes_the_generated_pages(site):
    """serieskit/model/pagetable.py: each generated page is built, headed by its table title, and sits in the
    navigation where the table says (the lists after the series, in table order, before 性能 and 关于)."""
    from serieskit.model.pagetable import PAGES, SERIES_NAV
    lists = [p for p in PAGES if p.nav == "lists"]
    home = (site / "index.html").read_text(encoding="utf-8")
    nav_titles = re.findall(r'<a href="[^"]*" class="md-nav__link">\s*<span class="md-ellipsis">\s*([^<]+?)\s*</span>', home)
    for p in lists:
        page = site / p.path.removesuffix(".md") / "index.html"
        assert "<h1" in page.read_text(encoding="utf-8") and p.title in page.read_text(encoding="utf-8")
    order = [t for t in nav_titles if t in {p.title for p in lists} | {"性能", "关于"}]
    assert order[:len(lists) + 2] == [p.title for p in lists] + ["性能", "关于"], order
    assert SERIES_NAV in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_a_new_docs_page_listed_in_mkdocs_yml_is_in_the_navigation(tmp_path):
    proj = make_project(tmp_path)
    (proj / "docs" / "foo.md").write_text("# 新页面\n\n一段文字。\n", encoding="utf-8")
    cfg = proj / "mkdocs.yml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("  - 关于: about.md\n", "  - 关于: about.md\n  - 新页面: foo.md\n"),
                   encoding="utf-8")
    r = build(proj, tmp_path / "site")
    assert r.returncode == 0, r.stderr[-3000:]
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="foo/"' in home and "新页面" in home
