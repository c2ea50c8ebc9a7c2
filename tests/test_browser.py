"""What readers see, in a real browser: the real site is built, served on 127.0.0.1 and read by Debian's
Chromium (Playwright), on a desktop and on a phone, in light and in dark mode.

Every page: no request leaves 127.0.0.1, no console error, no failed request; every diagram and
formula arrives drawn by the build (inline SVG, KaTeX's HTML and MathML) and shows, and no page loads
mermaid or KaTeX; the diagrams carry the palette's colours and readable text; every figure shows its
image and caption; on a phone nothing scrolls sideways but the boxes made for it; axe-core (WCAG 2.0-2.2 A and
AA, best practices) finds nothing, in light and dark mode. Posts: the
timeliness notice, sister block, series position, prev / next and the 在做 items match the frontmatter
and the manifest (read with serieskit's loader). As a reader: Chinese search, glossary tooltips,
instant navigation. Screenshots go to artifacts/screenshots/ (not committed; CI keeps them).

One browser for the whole session; each page is read once per viewport (the sweep,
tests/support/sweep.py, shared with tests/test_csp_browser.py) and every check below reads from that
visit, so the suite stays fast.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from support.browser_harness import (DESKTOP, INIT_SCRIPT, LAYOUT_JS, PHONE, READ_JS, READY_JS, TODAY, SiteServer,
                                     axe_report, build_site, drawing_requests, has_math, run_axe, site_pages)
from support.sweep import (CONV, PAGES, PALETTE, POSTS_BY_URL, PUBLISHED, READY_TIMEOUT_MS, SERIES_INDEXES, SHOWCASE, SITE,
                           Visit, expected_diagrams, shots_dir, toggle_scheme, url_of, wait_ready, watch)
from serieskit.analysis.lead import banner, sister_line
from serieskit.analysis.mermaid import mermaid_fences
from serieskit.analysis.figures import figures
from serieskit.render.post import render_post, tooltip

MIN_CONTRAST = 4.5
MIN_DIAGRAM_TEXT_PX = 11.0   # a diagram may shrink to fit, never below this text size: it scrolls instead
SEARCH_TERM = "投机解码"      # a glossary term; the glossary's `post:` says which post explains it

# --- the model (tests/support/sweep.py) and the sweep's visits (tests/conftest.py `desktop`, `phone`, `visits`) ---
DEFAULT_FILL = CONV.colour(CONV.default_node).fill.lower()


# --- every page -----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_suite_reads_every_page_of_the_site(built):
    assert sorted("/" + p for p in site_pages(built)) == PAGES


@pytest.mark.parametrize("path", PAGES)
def test_every_page_can_be_read(visits, path):
    v = visits[path]
    assert not v.error, f"{path} ({v.viewport}): {v.error}"
    assert v.ready, f"{path} ({v.viewport}): diagrams, formulas or images still not done after {READY_TIMEOUT_MS} ms"


@pytest.mark.parametrize("path", PAGES)
def test_no_request_leaves_127_0_0_1(visits, server, path):
    v = visits[path]
    foreign = [u for u in v.requests if not (u.startswith(server.origin + "/") or u.startswith(("data:", "blob:")))]
    assert not foreign, f"{path} ({v.viewport}) requested other hosts:\n" + "\n".join(foreign)
    assert v.requests, f"{path}: no request recorded"


@pytest.mark.parametrize("path", PAGES)
def test_no_console_error_and_no_failed_request(visits, path):
    v = visits[path]
    assert not v.failed, f"{path} ({v.viewport}) failed requests:\n" + "\n".join(v.failed)
    assert not v.console, f"{path} ({v.viewport}) console errors:\n" + "\n".join(v.console)


@pytest.mark.parametrize("path", PAGES)
def test_no_page_loads_mermaid_or_katex(visits, path):
    """The build drew every diagram and formula: no page requests or runs a drawing library (mermaid,
    its loader, KaTeX's script, its auto-render, math.js), and no diagram is drawn by a script."""
    v = visits[path]
    assert drawing_requests(v.requests) == [], f"{path} ({v.viewport}) requested: {drawing_requests(v.requests)}"
    for data in (v.light, v.dark or {}):
        assert data.get("drawingRuntime", []) == [], f"{path} ({v.viewport}): {data['drawingRuntime']}"
        assert data.get("shadowDiagrams", 0) == 0, f"{path} ({v.viewport}): a diagram drawn by a script (shadow root)"


@pytest.mark.parametrize("path", PAGES)
def test_every_diagram_is_drawn_by_the_build_and_shows(visits, built, path):
    v = visits[path]
    expected = expected_diagrams(built, path)
    for scheme, data in (("light", v.light), ("dark", v.dark)):
        if data is None:        # a phone reads dark mode on the screenshot pages only
            continue
        where = f"{path} ({v.viewport}, {scheme})"
        assert data["pendingDiagrams"] == 0, f"{where}: {data['pendingDiagrams']} diagram(s) left as source text"
        assert not data["drawErrors"], f"{where}: the build could not draw: {data['drawErrors']}"
        assert not data["mermaidErrors"], f"{where}: mermaid error output on the page: {data['mermaidErrors']}"
        assert len(data["diagrams"]) == expected, f"{where}: {len(data['diagrams'])} diagram(s) drawn, {expected} in the source"
        for i, d in enumerate(data["diagrams"], 1):
            assert d["hasSvg"], f"{where}: diagram {i} has no SVG in the page"
            assert d["visible"], f"{where}: diagram {i} ({d['id']}) is not visible"
            assert not d["errors"], f"{where}: diagram {i} shows a mermaid error: {d['errors']}"
            assert d["nodes"], f"{where}: diagram {i} ({d['type']}) has no nodes"


def _colour_problems(data: dict) -> list[str]:
    problems = []
    for i, d in enumerate(data["diagrams"], 1):
        for n in d["nodes"]:
            if n["classes"]:
                want = {PALETTE[c] for c in n["classes"]}
                if n["fill"] not in want:
                    problems.append(f"diagram {i} node {n['label']!r} class {n['classes']}: fill {n['fill']}, want {sorted(want)}")
            elif n["styled"]:
                if n["fill"] not in CONV.allowed_colours:
                    problems.append(f"diagram {i} node {n['label']!r} styled with fill {n['fill']}, outside the palette")
            elif n["fill"] != DEFAULT_FILL:
                problems.append(f"diagram {i} unstyled node {n['label']!r}: fill {n['fill']}, want the default {DEFAULT_FILL}")
    return problems


@pytest.mark.parametrize("path", [p for p in PAGES if p in POSTS_BY_URL])
def test_diagram_nodes_carry_palette_and_default_fills_in_light_and_dark(desktop, path):
    v = desktop[path]
    if not v.light["diagrams"]:
        assert not mermaid_fences(POSTS_BY_URL[path])
        return
    assert v.light["scheme"] == "default" and v.dark and v.dark["scheme"] == "slate"
    for mode, data in (("light", v.light), ("dark", v.dark)):
        problems = _colour_problems(data)
        assert not problems, f"{path} in {mode} mode:\n" + "\n".join(problems)
    classes = {c for d in v.light["diagrams"] for n in d["nodes"] for c in n["classes"]}
    assert classes, f"{path}: no node uses a palette class (the posts colour their diagrams with them)"


@pytest.mark.parametrize("path", [p for p in PAGES if p in POSTS_BY_URL])
def test_diagram_text_keeps_its_contrast_in_light_and_dark(desktop, path):
    v = desktop[path]
    for mode, data in (("light", v.light), ("dark", v.dark or {"diagrams": []})):
        low = [f"diagram {i} {t['kind']} {t['label']!r}: {t['fg']} on {t['bg']} = {t['ratio']:.2f}"
               for i, d in enumerate(data["diagrams"], 1) for t in d["texts"] if t["ratio"] < MIN_CONTRAST]
        assert not low, f"{path} in {mode} mode, text contrast below {MIN_CONTRAST}:1:\n" + "\n".join(low)
        if data["diagrams"]:
            assert any(t["kind"] == "node" or t["kind"] == "actor" for d in data["diagrams"] for t in d["texts"])


@pytest.mark.parametrize("path", PAGES)
def test_axe_finds_no_violation_in_light_and_dark(visits, host, path):
    """axe-core (tests/support/browser_harness.py AXE_TAGS: WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best
    practices; no rule left out) on the page as served, under its Content-Security-Policy, in light and
    dark mode, on the desktop and the phone, once every block has been drawn (tests/support/sweep.py
    draw_every_block); before that, its keyboard rule for the boxes that scroll sideways. Its
    colour-contrast rule measures every text outside the diagrams; the diagrams' own text is measured
    above, inside their drawing."""
    v = visits[path]
    assert not v.error, f"{path} ({v.viewport}): {v.error}"
    assert set(v.axe) == {"light, first screen", "light", "dark"}, f"{path} ({v.viewport}): axe ran in {sorted(v.axe)}"
    found = {f"{host} {path} ({v.viewport}, {mode})": got for mode, got in v.axe.items() if got}
    assert not found, "axe-core found:\n" + axe_report(found)


@pytest.mark.parametrize("path", PAGES)
def test_the_first_tab_is_a_skip_link_into_the_content(visits, path):
    """From the top of the page: Tab reaches the skip link first, Enter puts the focus in the page's
    text, the next Tab goes on from there (to the text, or the footer on a page with nothing to focus)."""
    v = visits[path]
    assert not v.error, f"{path} ({v.viewport}): {v.error}"
    first, landed, after = v.skip
    assert first == "skip link", f"{path} ({v.viewport}): the first Tab goes to {first}"
    assert landed == "content", f"{path} ({v.viewport}): the skip link leaves the focus on {landed}"
    assert after in ("content", "footer"), f"{path} ({v.viewport}): the Tab after the skip link goes to {after}"


@pytest.mark.parametrize("path", PAGES)
def test_every_formula_arrives_drawn_by_katex_and_shows(visits, path):
    v = visits[path]
    for scheme, data in (("light", v.light), ("dark", v.dark)):
        if data is None:
            continue
        m, where = data["math"], f"{path} ({v.viewport}, {scheme})"
        assert m["rendered"] == m["count"], f"{where}: {m['count'] - m['rendered']} of {m['count']} formulas not rendered"
        assert m["visible"] == m["count"], f"{where}: {m['count'] - m['visible']} of {m['count']} formulas not visible"
        assert not m["errors"], f"{where}: KaTeX errors: {m['errors']}"
        assert not [e for e in data["drawErrors"] if e.startswith("code")], f"{where}: the build could not draw: {data['drawErrors']}"
        assert not m["raw"], f"{where}: raw TeX left in the text: {m['raw'][:5]}"
    m = v.light["math"]
    post = POSTS_BY_URL.get(path)
    if post is not None and has_math(post):
        assert m["count"] > 0, f"{path}: the post has formulas but none reached the page"


@pytest.mark.parametrize("path", PAGES)
def test_every_figure_shows_its_image_and_caption(visits, path):
    v = visits[path]
    figs = v.light["figures"]
    for f in figs:
        assert f["naturalWidth"] > 0 and f["visible"], f"{path} ({v.viewport}): image {f['src']} is not shown"
        assert f["caption"] and f["captionVisible"], f"{path} ({v.viewport}): figure {f['src']} has no visible figcaption"
    broken = [i["src"] for i in v.light["looseImages"] if not i["naturalWidth"]]
    assert not broken, f"{path} ({v.viewport}): images not shown: {broken}"
    post = POSTS_BY_URL.get(path)
    if post is not None:   # a post's images are all figures with a caption (FIG001)
        assert not v.light["looseImages"], f"{path}: images outside a figure: {v.light['looseImages']}"
        want = [Path(f.image.src).name for f in figures(post) if f.caption is not None]
        got = [Path(urlsplit(f["src"] or "").path).name for f in figs]
        assert got == want, f"{path}: figures on the page {got}, in the post {want}"


# --- the series blocks of a post -----------------------------------------------------------------------------
def _timely(post) -> bool:
    v = post.meta.get("timely")
    if isinstance(v, bool):
        return v
    s = SITE.series_of(post)
    return bool(s and s.timely)


def _sister_expected(post) -> list[dict]:
    sl = sister_line(post, CONV)
    out = []
    for item in (sl.items if sl else []):
        if item.kind == "link":
            kind, target = SITE.resolve(post, item.href)
            assert kind == "page", f"{post.rel}: sister link {item.href} does not resolve ({kind})"
            tp = SITE.post_at(target)
            if tp is not None and tp.is_draft:
                out.append({"kind": "planned", "text": item.label, "href": None, "badge": False})
            else:
                out.append({"kind": "link", "text": item.label, "href": url_of(target), "badge": False})
        else:
            out.append({"kind": "planned", "text": item.label, "href": None, "badge": item.marked})
    return out


@pytest.mark.parametrize("path", sorted(POSTS_BY_URL))
def test_post_shows_notice_sister_block_position_and_prev_next(desktop, path):
    post = POSTS_BY_URL[path]
    data = desktop[path].light
    series = SITE.series_of(post)
    last = post.last_update
    # the timeliness notice
    if series is not None and _timely(post):
        b = data["banner"]
        assert b and b["visible"], f"{path}: a timely post shows no timeliness notice"
        assert f"最后更新：{last.isoformat()}" in b["text"], f"{path}: notice {b['text'][:60]!r} vs frontmatter {last}"
        stale = (TODAY - last).days > series.stale_after_days
        assert b["stale"] == stale and (("可能已过时" in b["text"]) == stale), f"{path}: stale notice should be {stale}"
    elif banner(post, CONV) is None:
        assert data["banner"] is None
    # the sister block
    want = _sister_expected(post) if series is not None else []
    if want:
        s = data["sister"]
        assert s and s["visible"], f"{path}: the sister block is not visible"
        got = [{k: i[k] for k in ("kind", "text", "href", "badge")} for i in s["items"]]
        assert got == want, f"{path}: sister block\n got  {got}\n want {want}"
        for i in s["items"]:
            assert i["visible"] and (i["badgeVisible"] or not i["badge"]), f"{path}: sister item {i['text']} not visible"
    # series position and prev / next inside the series
    if series is None:
        assert data["position"] is None and data["prev"] is None and data["next"] is None
        return
    seq = SITE.series_posts(series.slug, include_drafts=False)
    k = seq.index(post)
    pos = data["position"]
    assert pos and pos["visible"], f"{path}: no series position"
    places = len(seq) + len(SITE.planned_open(series, include_drafts=False))
    assert series.title in pos["text"] and f"第 {post.order} 篇（全系列 {places} 篇，已发布 {len(seq)} 篇）" in pos["text"], \
        f"{path}: position {pos['text']!r}"
    assert pos["href"] == f"/{series.slug}/"
    for key, other in (("prev", seq[k - 1] if k > 0 else None), ("next", seq[k + 1] if k + 1 < len(seq) else None)):
        got = data[key]
        if other is None:
            assert got is None, f"{path}: {key} link {got} at the end of the series"
        else:
            assert got and got["visible"], f"{path}: no visible {key} link (to {other.rel})"
            assert got["href"] == "/" + other.url_dir and other.title in got["text"], f"{path}: {key} is {got}, want {other.rel}"


@pytest.mark.parametrize("path", SERIES_INDEXES)
def test_series_index_lists_posts_in_order_and_planned_posts_as_zaizuo(desktop, path):
    series = SITE.series[path.strip("/")]
    posts = SITE.series_posts(series.slug, include_drafts=False)
    titles = {p.title for p in posts}
    want = [(p.order if p.order is not None else 10 ** 6, 0, p.title, "/" + p.url_dir, False) for p in posts]
    want += [(pl.order if pl.order is not None else 10 ** 6 + 1, 1, pl.title, None, True)
             for pl in series.planned if pl.title not in titles]
    want.sort(key=lambda t: (t[0], t[1]))
    got = desktop[path].light["index"]
    assert [(i["title"], i["href"], i["planned"]) for i in got] == [(t, h, pl) for _, _, t, h, pl in want]
    for i in got:
        assert i["visible"], f"{path}: {i['title']} is not visible"
        if i["planned"]:
            assert i["badge"] and i["badgeVisible"], f"{path}: planned {i['title']} has no visible 在做 badge"


# The series map (serieskit/render/series_map.py): the index's diagram, the build's SVG in the page. A node's
# link is an SVG <a> inside the drawing (mermaid's `click ... href`), no script; its lines are counted
# from where its text is laid out.
MAP_JS = r"""
() => {
  const host = document.querySelector(".md-content div.mermaid");
  const svg = host && host.querySelector(":scope > svg");
  if (!svg) return null;
  const shown = svg.getBoundingClientRect().width, natural = svg.viewBox.baseVal.width;
  const lines = (el) => {
    const tops = new Set();
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n; (n = walk.nextNode());) {
      if (!n.nodeValue.trim()) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const rect of r.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
    }
    return tops.size;
  };
  const nodes = [...svg.querySelectorAll("g.node")].map((g) => {
    const a = g.closest("a"), label = g.querySelector(".nodeLabel");
    const href = a && (a.getAttribute("href") || a.getAttribute("xlink:href"));
    return { label: (label.textContent || "").replace(/\s+/g, " ").trim(), br: !!label.querySelector("br"),
             lines: lines(label), svgLink: !!a && a.namespaceURI === "http://www.w3.org/2000/svg" && svg.contains(a),
             href: href ? new URL(href, location.href).pathname : null,
             px: parseFloat(getComputedStyle(label).fontSize) * shown / natural };
  });
  return { nodes, shown, natural, boxWidth: host.clientWidth, boxScrollWidth: host.scrollWidth,
           band: [...svg.querySelectorAll("g.cluster")].map((c) => (c.textContent || "").trim()) };
}
"""


@pytest.mark.parametrize("path", SERIES_INDEXES)
def test_series_index_draws_the_series_map_readable_on_a_phone(browser, server, path):
    """The map is an SVG the build drew into the page; published nodes are links (SVG <a> with an
    href) to their posts with their series number, planned ones are no links and say 在做 on a line of
    their own; on a 390 px phone it fits the column with text of at least 11 px, and its text keeps
    4.5:1 in light and dark, on the desktop too; a tap on a node opens the post."""
    series = SITE.series[path.strip("/")]
    posts = SITE.series_posts(series.slug, include_drafts=False)
    planned = SITE.planned_open(series, include_drafts=False)
    want = {f"{SITE.series_number(p, include_drafts=False)[0]}. ": "/" + p.url_dir for p in posts}
    want_planned = {f"{pl.order}. " for pl in planned}
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        ctx = browser.new_context(viewport=viewport, color_scheme="light", is_mobile=viewport is PHONE,
                                  has_touch=viewport is PHONE, device_scale_factor=1)
        ctx.add_init_script(INIT_SCRIPT)
        page = ctx.new_page()
        v = Visit(path, name)
        watch(page, v)
        page.goto(server.origin + path, wait_until="load")
        assert wait_ready(page, 1), f"{path} ({name}): the map is not drawn"
        for scheme in ("light", "dark"):
            if scheme == "dark":
                assert toggle_scheme(page) == "slate"
            got = page.evaluate(MAP_JS)
            assert got, f"{path} ({name}, {scheme}): no SVG map"
            nodes = got["nodes"]
            assert len(nodes) == len(posts) + len(planned), [n["label"] for n in nodes]
            links = {n["label"].split(" ", 1)[0] + " ": n["href"] for n in nodes if n["href"]}
            assert links == want, f"{path} ({name}): node links {links}, want {want}"
            grey = {n["label"].split(" ", 1)[0] + " " for n in nodes if not n["href"]}
            assert grey == want_planned and all("在做" in n["label"] for n in nodes if not n["href"]), nodes
            assert not any("在做" in n["label"] for n in nodes if n["href"])
            assert all(n["svgLink"] for n in nodes if n["href"]), nodes
            assert all(n["br"] and n["lines"] >= 2 for n in nodes if not n["href"]), \
                f"{path} ({name}): a planned node's 在做 is not on a line of its own: {nodes}"
            assert got["band"] and got["band"][0].startswith("总览"), got["band"]
            small = [n for n in nodes if n["px"] < MIN_DIAGRAM_TEXT_PX]
            assert not small, f"{path} ({name}): map text below {MIN_DIAGRAM_TEXT_PX}px: {small[:3]}"
            if viewport is PHONE:
                assert got["boxScrollWidth"] <= got["boxWidth"] + 1, \
                    f"{path}: the map ({got['natural']:.0f}px) does not fit the phone's column ({got['boxWidth']}px)"
            data = page.evaluate(READ_JS, {"palette": list(PALETTE)})
            texts = [t for t in data["diagrams"][0]["texts"] if t["kind"] in ("node", "cluster")]
            assert len(texts) >= len(nodes)
            low = [t for t in texts if t["ratio"] < MIN_CONTRAST]
            assert not low, f"{path} ({name}, {scheme}): map text below {MIN_CONTRAST}:1: {low}"
        if viewport is PHONE:
            page.locator("div.mermaid a").first.click()
            page.wait_for_url(lambda u: urlsplit(u).path in want.values(), timeout=10_000)
        assert not v.console and not v.failed, v.console + v.failed
        assert drawing_requests(v.requests) == [], drawing_requests(v.requests)
        ctx.close()


# --- on a phone -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", PAGES)
def test_phone_page_never_scrolls_sideways_and_wide_boxes_scroll_inside(phone, path):
    lay = phone[path].layout
    assert lay["pageScrollWidth"] <= lay["viewport"], \
        f"{path}: the page is {lay['pageScrollWidth']}px wide on a {lay['viewport']}px phone; sticking out: {lay['sticking']}"
    assert not lay["sticking"], f"{path}: elements stick out of the screen: {lay['sticking']}"
    for b in lay["boxes"]:
        assert b["boxRight"] <= lay["viewport"] + 1, f"{path}: a {b['kind']} box ends at {b['boxRight']}px: {b}"
        if b["contentWidth"] > b["boxWidth"] + 1:
            assert b["scrolls"] and b["boxScrollWidth"] > b["boxWidth"], f"{path}: a wide {b['kind']} does not scroll in its box: {b}"
        if b["kind"] == "diagram":
            assert b["textPx"] >= MIN_DIAGRAM_TEXT_PX, \
                f"{path}: a diagram {b['natural']}px wide is squeezed to {b['shown']}px (text {b['textPx']:.1f}px): it should scroll"


# --- as a reader ------------------------------------------------------------------------------------------------
@pytest.fixture
def reader(browser, server):
    ctx = browser.new_context(viewport=DESKTOP, color_scheme="light")
    ctx.add_init_script(INIT_SCRIPT)
    page = ctx.new_page()
    page.visit = Visit("", "desktop")
    watch(page, page.visit)
    yield page
    ctx.close()


def test_chinese_search_lists_the_post_of_the_term_first(reader, server):
    entry = next((e for s in SITE.series.values() for e in s.glossary if e.term == SEARCH_TERM), None)
    assert entry is not None and entry.post, f"the glossary has no entry {SEARCH_TERM} with a post"
    target = next((p for p in PUBLISHED if p.slug == entry.post), None)
    assert target is not None, f"the glossary says {SEARCH_TERM} is explained in `{entry.post}`, which is not a published post"
    reader.goto(server.origin + "/")
    box = reader.locator("input.md-search__input")
    box.click()
    box.fill(SEARCH_TERM)
    box.press("End")   # an IME commits with a key press; Material searches on keyup
    first = reader.locator(".md-search-result__item > a.md-search-result__link").first
    first.wait_for(timeout=15_000)
    assert urlsplit(first.get_attribute("href")).path.rstrip("/").endswith(target.url_dir.rstrip("/")), \
        f"first result for {SEARCH_TERM}: {first.get_attribute('href')}, want {target.url_dir}"
    assert not reader.visit.console and not reader.visit.failed


def test_glossary_term_shows_its_tooltip_on_hover(reader, server):
    post, term = next((p, t) for p in PUBLISHED for t in render_post(p, SITE).glossary_terms[:1])
    entry = next(e for e in SITE.series_of(post).glossary if e.term == term)
    reader.goto(server.origin + "/" + post.url_dir)
    abbr = reader.locator("abbr.series-term").first
    abbr.hover()
    tip = reader.locator(".md-tooltip2--active")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.inner_text().strip() == tooltip(entry)
    assert not reader.visit.console and not reader.visit.failed


def test_instant_navigation_shows_diagrams_and_formulas(reader, server, built):
    seq = [p for s in SITE.series.values() for p in SITE.series_posts(s.slug, include_drafts=False)]
    pair = next(((a, b) for a, b in zip(seq, seq[1:]) if mermaid_fences(b) and has_math(b)), None)
    assert pair, "no post with diagrams and formulas follows another in a series"
    a, b = pair
    reader.goto(server.origin + "/" + a.url_dir)
    assert wait_ready(reader, len(mermaid_fences(a)))
    reader.evaluate("window.__sameDocument = true")
    fetched = len(reader.visit.requests)
    reader.locator(".md-content .series-nav__next").click()
    reader.wait_for_url(server.origin + "/" + b.url_dir)   # pushed at once; the content follows
    reader.wait_for_function("(t) => (document.querySelector('.md-content h1') || {}).textContent === t", arg=b.title)
    assert wait_ready(reader, len(mermaid_fences(b))), f"{b.url_dir}: diagrams or formulas not drawn after instant navigation"
    assert reader.evaluate("window.__sameDocument === true"), "the link reloaded the page: instant navigation is off"
    data = reader.evaluate(READ_JS, {"palette": list(PALETTE)})
    assert data["url"].endswith("/" + b.url_dir) and data["pendingDiagrams"] == 0
    assert len(data["diagrams"]) == len(mermaid_fences(b)) and all(d["hasSvg"] and d["visible"] and not d["errors"]
                                                                   for d in data["diagrams"])
    m = data["math"]
    assert m["count"] > 0 and m["rendered"] == m["count"] == m["visible"] and not m["errors"], m
    assert data["drawingRuntime"] == [] and data["shadowDiagrams"] == 0, data["drawingRuntime"]
    # the next page came as HTML with its drawings in it: no drawing script fetched on the way
    assert drawing_requests(reader.visit.requests[fetched:]) == [], reader.visit.requests[fetched:]
    assert not reader.visit.console and not reader.visit.failed, reader.visit.console + reader.visit.failed


STYLESHEET_LOADS_JS = r"""
window.__stylesheetLoads = [];
document.addEventListener("load", (e) => {
  if (e.target instanceof HTMLLinkElement && e.target.rel === "stylesheet")
    window.__stylesheetLoads.push({ sheet: e.target.href.split("/").pop(), afterMaterial: "document$" in window });
}, true);
"""


def test_no_stylesheet_loads_again_after_the_page_is_styled(reader, server):
    """Material's instant navigation makes every relative address of the page absolute as its script
    starts; a stylesheet whose address changes is loaded again and the whole page restyled and laid out
    (50-100 ms of blocking time on a long post on a phone). The site's <head> ends by making the
    stylesheets' addresses absolute (overrides/partials/series-stylesheets.html), so that no stylesheet
    loads once Material's script has run, and instant navigation still finds its way."""
    seq = [p for s in SITE.series.values() for p in SITE.series_posts(s.slug, include_drafts=False)]
    a, b = next((a, b) for a, b in zip(seq, seq[1:]) if has_math(a) and has_math(b))
    reader.context.add_init_script(STYLESHEET_LOADS_JS)
    reader.goto(server.origin + "/" + a.url_dir)
    assert wait_ready(reader, len(mermaid_fences(a)))
    reader.wait_for_timeout(300)     # a load Material's script started would come after it ran
    sheets = reader.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.getAttribute('href'))")
    loads = reader.evaluate("window.__stylesheetLoads")
    assert any("katex" in s for s in sheets) and all(s.startswith(server.origin + "/") for s in sheets), sheets
    assert {x["sheet"] for x in loads} == {s.split("/").pop() for s in sheets}, (loads, sheets)
    late = [x["sheet"] for x in loads if x["afterMaterial"]]
    assert not late, f"{a.url_dir}: loaded again after Material's script ran (the whole page restyled): {late}"
    reader.evaluate("window.__sameDocument = true")
    reader.locator(".md-content .series-nav__next").click()
    reader.wait_for_function("(t) => (document.querySelector('.md-content h1') || {}).textContent === t", arg=b.title)
    assert reader.evaluate("window.__sameDocument === true"), "the link reloaded the page: instant navigation is off"
    assert reader.evaluate("window.__stylesheetLoads.length") == len(loads), \
        f"instant navigation to {b.url_dir} loaded a stylesheet again: {reader.evaluate('window.__stylesheetLoads')[len(loads):]}"
    assert not reader.visit.console and not reader.visit.failed, reader.visit.console + reader.visit.failed


CANARY = """
```mermaid
flowchart LR
  A[起点] --> B[终点]
  style A fill:#FF0000
```

```mermaid
flowchart LR
  A[起点] --> (((
```

$$
\\frac{1}{
$$

![缺图](assets/missing.svg)  
图 2：不存在的图

<div class="canary-wide" style="width: 600px">一个比手机屏幕宽的块</div>

<p class="canary-faint" style="color: #d4d4d4">浅得看不清的字</p>
"""


def _open_the_first_post(browser, proj, tmp_path):
    """A fixture project built (without --strict) and its first post read on the desktop as the suite
    reads every page, then its layout on a phone: the build's log, the visit, the page's data, the
    layout, and whether the suite's readiness check takes it as done."""
    out = tmp_path / "out"
    with SiteServer(out.parent) as srv:
        r = build_site(out, proj, today=TODAY, site_url=srv.base + "out/")
        assert r.returncode == 0, r.stdout + r.stderr
        ctx = browser.new_context(viewport=DESKTOP)
        ctx.add_init_script(INIT_SCRIPT)
        page = ctx.new_page()
        v = Visit("/out/demo/first/", "desktop")
        watch(page, v)
        page.goto(srv.origin + v.path)
        # drawn, by the build or by a script (in a shadow root, which the init script opens)
        page.wait_for_function("() => [...document.querySelectorAll('div.mermaid')].some((d) => d.querySelector('svg')"
                               " || (d.shadowRoot && d.shadowRoot.querySelector('svg'))) && document.querySelector('.katex')"
                               " && [...document.images].every((i) => i.complete)")
        data = page.evaluate(READ_JS, {"palette": list(PALETTE)})
        ready = page.evaluate(READY_JS, 1)
        axe = run_axe(page)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(100)
        layout = page.evaluate(LAYOUT_JS)
        ctx.close()
    return r.stdout + r.stderr, v, data, layout, ready, axe


def test_the_checks_see_a_broken_page(browser, tmp_path):
    """The suite's own eyes: a diagram and a formula the build cannot draw (a build without --strict
    reports MER004 and MAT001 and the page shows their source as the build's error markup), an
    off-palette fill, a missing image and a block wider than a phone, on a fixture page, are each seen
    by the checks above (a green run means the real pages have none)."""
    from support.sitebuild import make_project
    proj = make_project(tmp_path)
    post = proj / "series" / "demo" / "first.md"
    text = post.read_text(encoding="utf-8").replace("## 参考资料", CANARY + "\n## 参考资料")
    post.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    bad_diagram = next(i for i, ln in enumerate(lines, 1) if ln.strip() == "A[起点] --> (((")
    bad_formula = next(i for i, ln in enumerate(lines, 1) if ln.strip() == "\\frac{1}{") - 1   # its opening $$
    log, v, data, layout, _, axe = _open_the_first_post(browser, proj, tmp_path)
    # the build names what it could not draw, at the author's lines
    assert re.search(rf"series/demo/first\.md:{bad_diagram}:\d+: MER004 ", log), log[-3000:]
    assert re.search(rf"series/demo/first\.md:{bad_formula}:\d+: MAT001 ", log), log[-3000:]
    # ...and the page shows their source in its error markup, which the diagram and formula checks see
    errors = data["drawErrors"]
    assert any(e.startswith("pre: ") and "A[起点] --> (((" in e for e in errors), errors
    assert any(e.startswith("code: ") and "\\frac{1}{" in e for e in errors), errors
    assert len(data["diagrams"]) == 2 and all(d["hasSvg"] and d["visible"] for d in data["diagrams"]), data["diagrams"]
    assert data["math"]["count"] == data["math"]["rendered"] == 2, data["math"]      # the two that did draw
    assert any("fill #ff0000" in p for p in _colour_problems(data)), _colour_problems(data)
    assert [f["naturalWidth"] > 0 for f in data["figures"]] == [True, False], data["figures"]
    assert any("missing.svg" in f and "404" in f for f in v.failed), v.failed
    assert layout["pageScrollWidth"] > layout["viewport"] or any(e["cls"] == "canary-wide" for e in layout["sticking"]), layout
    # nothing was left to a script: no drawing library loaded, no mermaid error drawn in the page
    assert drawing_requests(v.requests) == [] and data["drawingRuntime"] == [], v.requests
    assert not data["mermaidErrors"], data["mermaidErrors"]
    assert v.console and all("404" in m for m in v.console), v.console                # the missing image's only
    assert v.failed and all("missing.svg" in f for f in v.failed), v.failed
    faint = [n for x in axe if x["rule"] == "color-contrast" for n in x["nodes"] if "canary-faint" in n["html"]]
    assert faint, "axe did not see the faint text:\n" + axe_report({"canary": axe})


def test_the_checks_see_a_page_that_leaves_the_drawing_to_the_browser(browser, tmp_path, monkeypatch):
    """The same eyes on the fallback (SERIES_DRAW=browser): mermaid and KaTeX load and draw in the
    reader's browser, and the checks of the drawn pages see it (the requests, the runtime, the shadow
    root, no SVG in the page)."""
    from support.sitebuild import make_project
    proj = make_project(tmp_path)
    monkeypatch.setenv("SERIES_DRAW", "browser")     # build_site passes the environment on
    _, v, data, _, ready, _ = _open_the_first_post(browser, proj, tmp_path)
    loaded = drawing_requests(v.requests)
    assert any("/assets/vendor/mermaid/" in u for u in loaded) and any("katex.min.js" in u for u in loaded), loaded
    assert any("mermaid-loader.js" in u for u in loaded) and any(u.endswith("/math.js") for u in loaded), loaded
    assert "window.katex" in data["drawingRuntime"] and data["shadowDiagrams"] == 1, data["drawingRuntime"]
    assert [d["hasSvg"] for d in data["diagrams"]] == [False] and not ready


def test_screenshots_are_written_for_ci(desktop, phone, host):
    for name in SHOWCASE:
        for scheme in ("light", "dark"):
            for vp in ("desktop", "phone"):
                f = shots_dir(host) / f"{name}-{scheme}-{vp}.png"
                assert f.is_file() and f.stat().st_size > 10_000, f
