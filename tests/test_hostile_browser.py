"""Hostile content in a real browser (Debian's Chromium): scripts and event handlers in diagram
labels, markup in a title, summary, tags, glossary description and planned title. The site is built
without --strict (a strict build refuses it: SEC001) and served with its `_headers`, as a static host
would. Nothing of it runs, no page logs a CSP violation, the text shows as written, and a label with
`<br/>` draws on two lines.

The diagrams are drawn by the build (mermaid and its sanitizer run in the build's browser, then the
site's allow-list): the reader's browser gets finished SVG and no mermaid. So the `<img onerror>` label,
whose handler mermaid's DOMPurify used to meet in the reader's browser (a `script-src-attr` report,
although nothing ran), reaches the reader as a plain label: no page logs any violation, that one
included."""
from __future__ import annotations

import pytest
import yaml

from support.browser_harness import SiteServer, drawing_requests
from support.sitebuild import HOSTS, build, make_project
from support.sweep import CSP_INIT as INIT, DIAGRAMS_DRAWN as DRAWN

MARKUP = "<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script> & \"x\""
DIAGRAM = """
## 附录：图

```mermaid
flowchart LR
  P2["<script>window.__pwned=3</script>脚本"] --> P4["第一行<br/>第二行"]
  P4 --> P5["x < y & z"]
  click P5 href "javascript:window.__pwned=5"
```
"""
HANDLER_DIAGRAM = """
## 附录：图

```mermaid
flowchart LR
  P3["<img src=x onerror=window.__pwned=4>图片"] --> P6["终点"]
```
"""


def _frontmatter(path, **values):
    _, head, body = path.read_text(encoding="utf-8").split("---\n", 2)
    meta = yaml.safe_load(head)
    meta.update(values)
    path.write_text("---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n" + body, encoding="utf-8")


@pytest.fixture(scope="module", params=HOSTS)
def site(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"hostile-{request.param}")
    proj = make_project(tmp)
    demo = proj / "series" / "demo"
    _frontmatter(demo / "second.md", title=f"第二篇 {MARKUP}", summary=f"摘要 {MARKUP}", tags=["推理", f"标签 {MARKUP}"])
    with open(demo / "first.md", "a", encoding="utf-8") as fh:
        fh.write(DIAGRAM)
    with open(demo / "second.md", "a", encoding="utf-8") as fh:
        fh.write(HANDLER_DIAGRAM)
    manifest = yaml.safe_load((demo / "series.yml").read_text(encoding="utf-8"))
    manifest["planned"].append({"title": f"计划 {MARKUP}", "order": 8})
    (demo / "series.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    glossary = yaml.safe_load((demo / "glossary.yml").read_text(encoding="utf-8"))
    glossary[1]["desc"] = f"解释 {MARKUP}"   # 张量并行, which the first post mentions
    (demo / "glossary.yml").write_text(yaml.safe_dump(glossary, allow_unicode=True), encoding="utf-8")
    out = tmp / "site"
    with SiteServer(out, headers=True) as host:     # with the site's `_headers`, as a static host sends them
        base = host.base
        r = build(proj, out, strict=False, host=request.param, SITE_URL=base)
        assert r.returncode == 0, r.stderr[-3000:]
        assert "SEC001" in r.stderr             # the build says what a strict build would refuse
        strict = build(proj, tmp / "strict", strict=True, host=request.param, SITE_URL=base)
        assert strict.returncode == 1 and "SEC001" in strict.stderr, strict.stderr[-2000:]
        yield out, base


def urls(site, base: str) -> list[str]:
    """Every HTML file of the built site, as its address."""
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    return [base + (p[:-len("index.html")] if p.endswith("index.html") else p) for p in pages]


@pytest.fixture
def page(browser, site):
    out, base = site
    context = browser.new_context()
    context.add_init_script(INIT)
    pg = context.new_page()
    pg.console_messages = []
    pg.requests = []
    pg.on("console", lambda m: pg.console_messages.append(m.text))
    pg.on("request", lambda r: pg.requests.append(r.url))
    yield pg
    context.close()


def _violations(pg) -> list:
    return pg.evaluate("window.__csp") + [m for m in pg.console_messages if "Content Security Policy" in m]


def test_nothing_hostile_runs_on_any_page(site, page):
    out, base = site
    for url in urls(out, base):
        page.console_messages.clear()
        page.goto(url, wait_until="load")
        if page.locator(".mermaid").count():
            page.wait_for_function(DRAWN, timeout=10_000)
        page.wait_for_timeout(100)
        assert page.evaluate("window.__pwned") is None, url
        assert _violations(page) == [], (url, _violations(page))
        # nothing in a drawing that could run: no handler, no script, no script URL
        active = page.evaluate("""() => [...document.querySelectorAll('.mermaid *')].flatMap(e =>
            [...e.attributes].filter(a => /^on/i.test(a.name) || /^\\s*javascript:/i.test(a.value))
              .map(a => e.tagName + ' ' + a.name + '=' + a.value)
              .concat(e.tagName.toLowerCase() === 'script' ? ['script'] : []))""")
        assert active == [], (url, active)
    assert drawing_requests(page.requests) == [], drawing_requests(page.requests)


def test_the_diagram_shows_its_labels_as_written_and_breaks_lines(site, page):
    out, base = site
    page.goto(base + "demo/first/", wait_until="load")
    page.wait_for_function(DRAWN, timeout=10_000)
    labels = page.evaluate("""() => [...document.querySelectorAll('.mermaid > svg')].flatMap(d =>
        [...d.querySelectorAll('.nodeLabel')].map(l =>
          ({text: l.textContent, br: !!l.querySelector('br'), h: l.getBoundingClientRect().height})))""")
    by_text = {lab["text"]: lab for lab in labels}
    assert "x < y & z" in by_text and "脚本" in by_text, labels     # the script in the label is gone, its text stays
    two = by_text.get("第一行第二行")
    assert two and two["br"] and two["h"] > 1.6 * by_text["x < y & z"]["h"], labels
    # the `click ... href "javascript:..."` node is no link that runs anything
    hrefs = page.evaluate("""() => [...document.querySelectorAll('.mermaid a')].map(a =>
        a.getAttribute('href') || a.getAttribute('xlink:href') || '')""")
    assert not [h for h in hrefs if "javascript" in h.lower()], hrefs
    page.goto(base + "demo/second/", wait_until="load")
    page.wait_for_function(DRAWN, timeout=10_000)
    second = page.evaluate("""() => [...document.querySelectorAll('.mermaid > svg .nodeLabel')].map(l => l.textContent)""")
    assert "图片" in second and "终点" in second, second
    # the label's <img> stays an image (mermaid's label HTML allows one), without its handler
    imgs = page.evaluate("() => [...document.querySelectorAll('.mermaid img')].map(i => i.getAttributeNames().sort())")
    assert imgs == [["src", "style"]], imgs
    assert page.evaluate("window.__pwned") is None


def test_markup_in_values_shows_as_text(site, page):
    out, base = site
    page.goto(base + "demo/second/", wait_until="load")
    assert page.locator(".series-post-header h1").inner_text().strip() == f"第二篇 {MARKUP}"
    assert f"标签 {MARKUP}" in page.locator(".series-post-header").inner_text()
    page.goto(base + "demo/", wait_until="load")
    body = page.locator("article").inner_text()
    assert f"计划 {MARKUP}" in body and f"摘要 {MARKUP}" in body
    page.console_messages.clear()
    page.goto(base + "demo/first/", wait_until="load")
    titles = page.evaluate("() => [...document.querySelectorAll('abbr.series-term')].map(a => a.title)")
    assert any(f"解释 {MARKUP}" in t for t in titles), titles
    assert page.evaluate("window.__pwned") is None and _violations(page) == []


def test_search_shows_a_hostile_title_and_text_as_written(site, page):
    out, base = site
    page.goto(base + "demo/first/", wait_until="load")
    page.keyboard.press("/")
    page.locator("input.md-search__input").fill("投机")      # in the second post's text
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=30_000)
    titles = page.locator(".md-search-result__item h1").all_inner_texts()
    assert f"第二篇 {MARKUP}" in [t.strip() for t in titles], titles
    # nothing of the results is markup but the highlights
    tags = page.evaluate("""() => [...document.querySelectorAll('.md-search-result__list *')]
        .map(e => e.tagName.toLowerCase()).filter(t => !['li', 'a', 'article', 'div', 'h1', 'p', 'mark', 'button'].includes(t))""")
    assert tags == [], tags
    assert page.evaluate("window.__pwned") is None and _violations(page) == []
