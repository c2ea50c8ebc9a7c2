"""Every frontmatter, manifest and glossary value that reaches HTML is escaped: a title, tag, summary,
author, series title or description, planned title or glossary text holding `<script>`, an event
handler, a `javascript:` link or a Markdown attribute list shows as text on the built pages (post
header, nav, <title>, meta tags, series index, tags page, archive, home, glossary table and the post
titles it links, tooltips), in the feed and in the search index, and adds nothing that runs. A
diagram's labels show the author's text in the drawn SVG (the browser fallback's fence holds the
source exactly as written).
"""
from __future__ import annotations

import json
import re
from urllib.parse import unquote
import xml.etree.ElementTree as ET

import html5lib
import pytest
import yaml

from support import drawings
from support.search_harness import pagefind_pages
from support.sitebuild import build, make_project

pytestmark = pytest.mark.slow   # builds the hostile fixture site (over a few seconds a test)

P = ("</title><script>alert(1)</script><img src=x onerror=alert(2)> *强调* [链](javascript:alert(4))"
     '{: onclick="alert(3)" } & "双" \'单\' </title>')
TITLE = f"第二篇 {P}：投机解码"
ATOM = "{http://www.w3.org/2005/Atom}"
DIAGRAM = ('flowchart LR\n  A["x < y & z"] --> B["第一行<br/>第二行"]\n  B --> C["</pre></code></div>"]\n'
           '  C --> D["</script> &amp; \'引号\' \\"双\\""]\n  D --> E["#quot;双#quot; 与 2 > 1"]')


def _set_frontmatter(path, **values):
    text = path.read_text(encoding="utf-8")
    _, head, body = text.split("---\n", 2)
    meta = yaml.safe_load(head)
    meta.update(values)
    path.write_text("---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n" + body,
                    encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("escaping")
    proj = make_project(tmp)
    demo = proj / "series" / "demo"
    _set_frontmatter(demo / "second.md", title=TITLE, tags=["推理", P], summary=f"摘要 {P}", author=f"作者 {P}")
    with open(demo / "second.md", "a", encoding="utf-8") as fh:
        fh.write("\n## 附录：术语\n\n<!-- glossary-table -->\n")
    manifest = yaml.safe_load((demo / "series.yml").read_text(encoding="utf-8"))
    manifest.update(title=f"系列 {P}", index_title=f"导航 {P}", description=f"描述 {P}")
    manifest["planned"].append({"title": f"计划 {P}", "order": 8, "summary": f"计划摘要 {P}"})
    (demo / "series.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    glossary = yaml.safe_load((demo / "glossary.yml").read_text(encoding="utf-8"))
    glossary.append({"term": "注入术语", "en": f"En {P}", "desc": f"解释 {P}"})
    (demo / "glossary.yml").write_text(yaml.safe_dump(glossary, allow_unicode=True), encoding="utf-8")
    # the first post's glossary table links the second post by its (hostile) title; its prose gets the
    # hostile tooltip; its diagram carries the characters that break a page when written unescaped
    with open(demo / "first.md", "a", encoding="utf-8") as fh:
        fh.write("\n## 附录：术语\n\n注入术语在这里第一次出现。\n\n<!-- glossary-table -->\n\n"
                 "```mermaid\n" + DIAGRAM + "\n```\n")
    out = tmp / "out"
    r = build(proj, out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


def doc(site, rel):
    return html5lib.parse((site / rel).read_text(encoding="utf-8"), treebuilder="etree", namespaceHTMLElements=False)


def text(el) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def find(tree, css_class: str, tag: str = "*"):
    return [e for e in tree.iter(tag) if css_class in (e.get("class") or "").split()]


def injected(tree) -> list[str]:
    """Anything on the page that runs and came from the payload."""
    bad = []
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        for k, v in el.attrib.items():
            if re.fullmatch(r"on[a-z]+", k.lower()):
                bad.append(f"<{el.tag} {k}={v!r}>")
            if k.lower() in ("href", "src") and v.strip().lower().startswith("javascript:"):
                bad.append(f"<{el.tag} {k}={v!r}>")
        runs = (el.get("type") or "").lower() in ("", "text/javascript", "module", "application/javascript")
        if el.tag == "script" and runs and "alert(" in (el.text or ""):   # (JSON-LD is data: it never runs)
            bad.append(f"<script>{el.text}")
        if el.tag == "img" and el.get("src") == "x":
            bad.append("<img src=x>")
    return bad


def test_no_page_runs_the_payload(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 8
    for page in pages:
        assert injected(doc(site, page.relative_to(site))) == [], page


def test_post_page_shows_the_values_as_text(site):
    tree = doc(site, "demo/second/index.html")
    assert P in text(tree.find(".//title"))
    (header,) = find(tree, "series-post-header", "header")
    assert text(header.find(".//h1")) == TITLE
    assert text(find(header, "series-post-author")[0]) == f"作者 {P}"
    assert [text(a) for a in find(header, "series-tag")] == ["推理", P]
    assert f"系列 {P}" in text(find(header, "series-position")[0])
    metas = {m.get("name"): m.get("content") for m in tree.iter("meta") if m.get("name")}
    assert metas["description"] == f"摘要 {P}" and metas["author"] == f"作者 {P}"
    nav = " ".join(text(a) for a in find(tree, "md-nav__link"))
    assert "3. 第二篇 </title><script>alert(1)</script>" in nav and f"系列 {P}" in nav
    glossary = [text(td) for td in tree.iter("td")]
    assert f"解释 {P}" in glossary and f"En {P}" in glossary
    prev = find(tree, "series-nav__prev", "a")
    assert prev and "第一篇" in text(prev[0])


def test_generated_pages_show_the_values_as_text(site):
    index = doc(site, "demo/index.html")
    assert text(index.find(".//article//h1")).rstrip("¶ ") == f"导航 {P}"
    body = text(index.find(".//article"))
    assert f"描述 {P}" in body and f"计划 {P}" in body and f"计划摘要 {P}" in body and f"摘要 {P}" in body
    assert TITLE in [text(a) for a in index.iter("a")]
    tags = doc(site, "tags/index.html")
    assert P in [text(h).replace("¶", "").strip() for h in tags.iter("h2")]
    assert f"{P} 1" in [text(a) for a in find(tags, "series-tag", "a")]
    assert TITLE in [text(a) for a in tags.iter("a")]
    archive = doc(site, "archive/index.html")
    assert TITLE in [text(a) for a in archive.iter("a")]
    assert f"系列 {P} 第 3 篇" in text(archive.find(".//article"))
    home = doc(site, "index.html")
    links = [text(a) for a in home.iter("a")]
    assert TITLE in links and f"导航 {P}" in links
    assert f"描述 {P}" in text(home.find(".//article"))


def test_tag_anchors_stay_plain_and_links_reach_them(site):
    tags = (site / "tags" / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'<h2 id="(tag-[^"]*)"', tags)
    assert ids and all(re.fullmatch(r"tag-[\w-]+", i) for i in ids), ids
    second = (site / "demo" / "second" / "index.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'class="series-tag" href="\.\./\.\./tags/#([^"]+)"', second)
    assert len(hrefs) == 2 and {unquote(h) for h in hrefs} <= set(ids), (hrefs, ids)


def test_feed_and_search_index_carry_text(site):
    feed = ET.fromstring((site / "feed.xml").read_bytes())
    entry = next(e for e in feed.findall(f"{ATOM}entry") if e.findtext(f"{ATOM}title") == TITLE)
    assert entry.findtext(f"{ATOM}summary") == f"摘要 {P}"
    assert entry.findtext(f"{ATOM}author/{ATOM}name") == f"作者 {P}"
    assert {c.get("term") for c in entry.findall(f"{ATOM}category")} >= {P}
    # the search index holds the title as text, exactly as written (search.js shows it as text;
    # tests/test_hostile_browser.py searches for it)
    assert pagefind_pages(site)["/demo/second/"]["meta"]["title"] == TITLE


def test_glossary_table_and_tooltips_show_titles_and_descriptions_as_text(site):
    tree = doc(site, "demo/first/index.html")
    links = [text(a) for td in tree.iter("td") for a in td.iter("a")]
    assert any(a.startswith("第二篇 </title><script>alert(1)</script><img src=x onerror=alert(2)>") for a in links), links
    titles = [a.get("title") for a in find(tree, "series-term", "abbr")]
    assert f"En {P}：解释 {P}" in titles, titles


def test_a_diagram_reaches_the_page_as_the_text_the_author_wrote(site):
    """The build draws the diagram; its labels are HTML (mermaid's htmlLabels, as Material draws them):
    `<`, `&`, quotes and a `<br/>` show as written, and tag-like text is mermaid's label markup (kept
    or dropped by its sanitizer), never the page's: nothing closes the diagram or adds an element."""
    page = (site / "demo/first/index.html").read_text(encoding="utf-8")
    assert drawings.undrawn(page) == [] and drawings.drawing_scripts(page) == []
    *_, d = drawings.diagrams(page)
    assert d.labels == ["x < y & z", "第一行\n第二行", "& '引号' \\双\\", '"双" 与 2 > 1'], d.labels
    tree = doc(site, "demo/first/index.html")
    parent = {c: p for p in tree.iter() for c in p}
    (div,) = [e for e in find(tree, "mermaid", "div") if d.id in e[0].get("id", "")]
    assert [c.tag for c in div] == ["{http://www.w3.org/2000/svg}svg"] and not (div.text or "").strip()
    assert parent[div] is parent[find(tree, "mermaid", "div")[0]]      # beside the post's other diagram
    inside = {e.tag.rsplit("}", 1)[-1] for e in div.iter() if isinstance(e.tag, str)}
    assert inside & {"pre", "code", "script", "title"} == set(), inside
    assert inside & {"br", "p", "span", "foreignObject"} == {"br", "p", "span", "foreignObject"}


def test_in_the_browser_fallback_a_diagram_reaches_the_fence_as_written(tmp_path):
    """SERIES_DRAW=browser: the page keeps the fence, its text exactly the author's, for mermaid in the
    reader's browser."""
    proj = make_project(tmp_path)
    with open(proj / "series" / "demo" / "first.md", "a", encoding="utf-8") as fh:
        fh.write("\n```mermaid\n" + DIAGRAM + "\n```\n")
    r = build(proj, tmp_path / "out", SERIES_DRAW="browser")
    assert r.returncode == 0, r.stderr[-3000:]
    tree = doc(tmp_path / "out", "demo/first/index.html")
    sources = ["".join(pre.itertext()) for pre in find(tree, "mermaid", "pre")]
    authored = [[ln for ln in src.rstrip("\n").splitlines() if not ln.lstrip().startswith("classDef ")]
                for src in sources]   # the palette's classDef lines are the build's own addition
    assert DIAGRAM.splitlines() in authored, sources


def test_share_metadata_and_json_ld_carry_the_values_as_text(site):
    tree = doc(site, "demo/second/index.html")
    metas = {m.get("property") or m.get("name"): m.get("content") for m in tree.iter("meta")}
    assert metas["og:title"] == TITLE and metas["og:description"] == f"摘要 {P}" and metas["twitter:title"] == TITLE
    blocks = [s.text for s in tree.iter("script") if s.get("type") == "application/ld+json"]
    assert len(blocks) == 1 and "</script" not in blocks[0].lower()      # the block cannot be left
    ld = json.loads(blocks[0])
    assert ld["headline"] == TITLE and ld["description"] == f"摘要 {P}" and P in ld["keywords"]
    assert ld["author"]["name"] == f"作者 {P}" and ld["isPartOf"]["name"] == f"系列 {P}"
    index = doc(site, "demo/index.html")
    (block,) = [s.text for s in index.iter("script") if s.get("type") == "application/ld+json"]
    assert json.loads(block)["name"] == f"导航 {P}"


def test_the_full_content_feeds_carry_text(site):
    for rel in ("feed.xml", "feed-demo.xml"):
        feed = ET.fromstring((site / rel).read_bytes())
        entry = next(e for e in feed.findall(f"{ATOM}entry") if e.findtext(f"{ATOM}title") == TITLE)
        frag = html5lib.parseFragment(entry.findtext(f"{ATOM}content"), treebuilder="etree", namespaceHTMLElements=False)
        assert injected(frag) == [], rel
    assert ET.fromstring((site / "feed-demo.xml").read_bytes()).findtext(f"{ATOM}title") == f"系列 {P} · 训推加速"
