"""What link previews and feed readers see, on the built fixture site published at an https address:
Open Graph, Twitter card and schema.org JSON-LD on every post (and Blog / CollectionPage on the home
page and series index), absolute URLs from SITE_URL, the default share image or the post's own; and
full-content Atom feeds, the site's and each series', checked against RFC 4287's rules and advertised
in the pages' heads."""
from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin

import html5lib
import pytest

from support.sitebuild import ROOT, make_project, mkdocs

pytestmark = pytest.mark.slow   # builds the fixture site (over a few seconds a test)

SITE_URL = "https://blog.example.org/"
ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("share")
    proj = make_project(tmp)
    second = proj / "series" / "demo" / "second.md"
    shutil.copy(ROOT / "docs" / "assets" / "images" / "share.png", proj / "series" / "demo" / "assets" / "card.png")
    text = second.read_text(encoding="utf-8")
    second.write_text(text.replace("\nsummary:", "\nimage: assets/card.png\nsummary:", 1), encoding="utf-8")
    assert "image: assets/card.png" in second.read_text(encoding="utf-8")
    out = tmp / "out"
    r = mkdocs(proj, "build", "--strict", "-d", str(out), SITE_URL=SITE_URL)
    assert r.returncode == 0, r.stderr[-3000:]
    return out


def head(site: Path, rel: str):
    tree = html5lib.parse((site / rel).read_text(encoding="utf-8"), treebuilder="etree", namespaceHTMLElements=False)
    metas: dict[str, list[str]] = {}
    for m in tree.iter("meta"):
        key = m.get("property") or m.get("name")
        if key:
            metas.setdefault(key, []).append(m.get("content"))
    lds = [json.loads(s.text) for s in tree.iter("script") if s.get("type") == "application/ld+json"]
    canonical = next((ln.get("href") for ln in tree.iter("link") if ln.get("rel") == "canonical"), None)
    feeds = [(ln.get("title"), ln.get("href")) for ln in tree.iter("link")
             if ln.get("rel") == "alternate" and ln.get("type") == "application/atom+xml"]
    return metas, lds, canonical, feeds


def one(metas, key):
    assert len(metas.get(key, [])) == 1, (key, metas.get(key))
    return metas[key][0]


def test_a_post_carries_open_graph_twitter_and_blogposting(site):
    metas, lds, canonical, _ = head(site, "demo/first/index.html")
    assert one(metas, "og:type") == "article"
    assert one(metas, "og:title") == "第一篇：效率指标"
    assert one(metas, "og:description") == "第一篇的摘要。"
    assert one(metas, "og:url") == canonical == SITE_URL + "demo/first/"
    assert one(metas, "og:site_name") == "训推加速" and one(metas, "og:locale") == "zh_CN"
    assert one(metas, "article:published_time") == "2026-03-20"
    assert one(metas, "article:modified_time") == "2026-05-08"
    assert metas["article:tag"] == ["指标", "推理"]
    assert one(metas, "twitter:card") == "summary_large_image"
    assert one(metas, "og:image") == one(metas, "twitter:image") == SITE_URL + "assets/images/share.png"
    assert (site / "assets" / "images" / "share.png").is_file()
    (ld,) = lds
    assert ld["@type"] == "BlogPosting" and ld["headline"] == "第一篇：效率指标"
    assert ld["datePublished"] == "2026-03-20" and ld["dateModified"] == "2026-05-08"
    assert ld["author"] == {"@type": "Person", "name": "Qian, Cheng"} and ld["keywords"] == ["指标", "推理"]
    assert ld["description"] == "第一篇的摘要。" and ld["url"] == canonical
    assert ld["isPartOf"]["@type"] == "CreativeWorkSeries" and ld["isPartOf"]["url"] == SITE_URL + "demo/"
    assert ld["position"] == 1


def test_a_post_names_its_own_share_image(site):
    metas, lds, _, _ = head(site, "demo/second/index.html")
    own = SITE_URL + "demo/assets/card.png"
    assert one(metas, "og:image") == own and lds[0]["image"] == own
    assert (site / "demo" / "assets" / "card.png").is_file()


def test_home_is_a_blog_and_the_series_index_a_collection(site):
    metas, lds, canonical, _ = head(site, "index.html")
    assert one(metas, "og:type") == "website" and one(metas, "og:url") == SITE_URL
    (ld,) = lds
    assert ld["@type"] == "Blog" and ld["url"] == SITE_URL
    assert {p["url"] for p in ld["blogPost"]} >= {SITE_URL + "demo/first/", SITE_URL + "demo/second/"}
    metas, lds, canonical, _ = head(site, "demo/index.html")
    (ld,) = lds
    assert ld["@type"] == "CollectionPage" and ld["url"] == canonical == SITE_URL + "demo/"
    assert [(p["position"], p["url"]) for p in ld["hasPart"]] == [(1, SITE_URL + "demo/first/"), (3, SITE_URL + "demo/second/")]


def test_every_page_has_a_card_with_absolute_urls(site):
    for page in site.rglob("*.html"):
        if page.name == "404.html":
            continue                      # the not-found page is never a link anyone shares
        metas, _, _, _ = head(site, page.relative_to(site).as_posix())
        for key in ("og:title", "og:url", "og:image", "twitter:card"):
            assert metas.get(key), (page, key)
        assert one(metas, "og:url").startswith(SITE_URL) and one(metas, "og:image").startswith(SITE_URL), page


def _validate_atom(path: Path, site: Path):
    """RFC 4287's requirements, the ones a reader relies on: feed id, title, updated, self and
    alternate links, an author for every entry; entry ids unique; RFC 3339 dates; content as HTML."""
    root = ET.fromstring(path.read_bytes())
    assert root.tag == f"{ATOM}feed"
    for child in ("id", "title", "updated"):
        assert len(root.findall(f"{ATOM}{child}")) == 1 and root.findtext(f"{ATOM}{child}"), child
    assert RFC3339.fullmatch(root.findtext(f"{ATOM}updated"))
    rels = {ln.get("rel"): ln.get("href") for ln in root.findall(f"{ATOM}link")}
    assert rels["self"] == urljoin(SITE_URL, path.relative_to(site).as_posix()) and rels["alternate"].startswith(SITE_URL)
    feed_author = root.find(f"{ATOM}author/{ATOM}name") is not None
    entries = root.findall(f"{ATOM}entry")
    assert entries
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids) and all(re.match(r"^(tag|https?|urn):", i) for i in ids)
    for e in entries:
        for child in ("id", "title", "updated"):
            assert len(e.findall(f"{ATOM}{child}")) == 1, child
        assert RFC3339.fullmatch(e.findtext(f"{ATOM}updated")) and RFC3339.fullmatch(e.findtext(f"{ATOM}published"))
        assert feed_author or e.find(f"{ATOM}author/{ATOM}name") is not None
        (alt,) = [ln for ln in e.findall(f"{ATOM}link") if ln.get("rel") == "alternate"]
        assert alt.get("href").startswith(SITE_URL)
        content = e.find(f"{ATOM}content")
        assert content is not None and content.get("type") == "html" and content.text
        frag = html5lib.parseFragment(content.text, treebuilder="etree", namespaceHTMLElements=False)
        for el in frag.iter():
            if not isinstance(el.tag, str):
                continue
            assert el.tag != "script", path
            for attr in ("src", "href"):
                if el.get(attr):
                    assert el.get(attr).startswith((SITE_URL, "https://", "http://", "mailto:")), (path, el.get(attr))
        assert 'class="mermaid"' not in content.text and "arithmatex" not in content.text
        # no drawing a reader cannot style: no inline SVG, no KaTeX HTML (its stylesheet is the page's)
        assert "<svg" not in content.text and 'class="katex' not in content.text
    return entries


def test_full_content_feeds_for_the_site_and_each_series(site):
    entries = _validate_atom(site / "feed.xml", site)
    assert len(entries) == 3
    series = _validate_atom(site / "feed-demo.xml", site)
    assert sorted(e.findtext(f"{ATOM}title") for e in series) == ["第一篇：效率指标", "第二篇：投机解码"]
    first = next(e for e in series if e.findtext(f"{ATOM}title") == "第一篇：效率指标")
    content = first.find(f"{ATOM}content").text
    assert "第 1 篇" in content                                             # the series number
    assert f'src="{SITE_URL}demo/assets/fig.svg"' in content               # images with absolute URLs
    assert f'href="{SITE_URL}demo/first/">[图：请在原文中查看]' in content    # a diagram: a link to the post
    # a formula: its MathML (feed readers show it), inline and display, with the author's TeX beside it
    frag = html5lib.parseFragment(content, treebuilder="etree", namespaceHTMLElements=False)
    maths = [m for m in frag.iter() if isinstance(m.tag, str) and m.tag.endswith("math")]
    tex = [("".join(a.itertext()).strip(), m.get("display")) for m in maths for a in m.iter()
           if isinstance(a.tag, str) and a.tag.endswith("annotation")]
    assert tex == [("T = N / t", None), (r"\text{MFU} = \frac{6 N D}{t \cdot P}", "block")], tex
    assert "[公式：请在原文中查看]" not in content


def test_in_the_browser_fallback_a_formula_is_a_link_in_the_feed(tmp_path):
    """SERIES_DRAW=browser: the page leaves the formula to KaTeX in the browser, which a feed reader
    does not run, so the feed links to the post instead."""
    proj = make_project(tmp_path)
    r = mkdocs(proj, "build", "--strict", "-d", str(tmp_path / "out"), SITE_URL=SITE_URL, SERIES_DRAW="browser")
    assert r.returncode == 0, r.stderr[-3000:]
    series = _validate_atom(tmp_path / "out" / "feed-demo.xml", tmp_path / "out")
    first = next(e for e in series if e.findtext(f"{ATOM}title") == "第一篇：效率指标")
    content = first.find(f"{ATOM}content").text
    assert content.count(f'href="{SITE_URL}demo/first/">[公式：请在原文中查看]') == 2, content
    assert f'href="{SITE_URL}demo/first/">[图：请在原文中查看]' in content and "<math" not in content


def test_pages_advertise_the_site_feed_and_their_series_feed(site):
    _, _, _, feeds = head(site, "demo/first/index.html")
    assert [urljoin(SITE_URL + "demo/first/", h) for _, h in feeds] == [SITE_URL + "feed.xml", SITE_URL + "feed-demo.xml"]
    _, _, _, feeds = head(site, "about/index.html")
    assert [urljoin(SITE_URL + "about/", h) for _, h in feeds] == [SITE_URL + "feed.xml"]


def test_the_feed_and_the_link_previews_give_a_post_the_same_url(tmp_path):
    """A post's URL follows its file's name (no `slug:`), which may be Chinese: the feed writes its
    address, and its series', as the link previews do (serieskit/model/urls.py `absolute`,
    percent-encoded), and the series' from the series, not from the post's folder."""
    from serieskit.model.loader import load_site
    from serieskit.publish.feed import atom
    from serieskit.render.share import post_share
    from support.project import TODAY, make_site

    root = make_site(tmp_path)
    hub = (root / "series" / "demo" / "hub.md").read_text(encoding="utf-8")
    post = hub.replace("slug: hub\n", "").replace("order: 3\n", "order: 4\n").replace("技术地图：", "另一篇：")
    (root / "series" / "solo" / "推理加速.md").write_text(post, encoding="utf-8")
    site = load_site(root, today=TODAY)
    p = next(p for p in site.posts if p.rel == "series/solo/推理加速.md")
    assert p.url_dir == "solo/推理加速/"
    ld = post_share(site, p, SITE_URL, "训推加速", "Qian, Cheng").ld
    assert ld["url"] == SITE_URL + "solo/%E6%8E%A8%E7%90%86%E5%8A%A0%E9%80%9F/"
    root_xml = ET.fromstring(atom(site, SITE_URL, "训推加速", "Qian, Cheng", {p.rel: "<p>正文</p>"},
                                  series=site.series_of(p)))
    entry = next(e for e in root_xml.findall(f"{ATOM}entry") if e.findtext(f"{ATOM}title") == p.title)
    (alt,) = [ln for ln in entry.findall(f"{ATOM}link") if ln.get("rel") == "alternate"]
    assert alt.get("href") == ld["url"]
    assert f'<a href="{ld["isPartOf"]["url"]}">' in entry.findtext(f"{ATOM}content")   # the series: demo/
    assert ld["isPartOf"]["url"] == SITE_URL + "demo/"
