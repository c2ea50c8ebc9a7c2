"""What axe cannot judge, in a real browser, on both hosts' builds of the real site (the same builds
as tests/test_browser.py: tests/conftest.py `served`).

- The keyboard alone (the skip link of every page is checked in tests/test_browser.py's visits): every
  Tab stop of a page is visible, shows a focus ring of at least 3:1 against what it stands on, and comes in the
  page's order (header, navigation, contents, text, footer); search, the navigation, the series
  map's links, the palette toggle and a table that scrolls sideways each work from the keys.
- Glossary terms reach a screen reader (an accessible description: the tooltip's text) and open
  their tooltip on focus and on a tap, not only on a mouse hover.
- `prefers-reduced-motion: reduce` stops the site's transitions and animations.
"""
from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest

from support.browser_harness import (DESKTOP, INIT_SCRIPT, PHONE, READY_JS, ROOT, SCROLL_BOXES_MEASURED, TODAY,
                                     has_math, run_axe, showcase_post, site_pages)
from support.sweep import toggle_scheme
from serieskit.model.loader import load_site
from serieskit.analysis.mermaid import mermaid_fences
from serieskit.render.post import render_post, tooltip

SITE = load_site(ROOT, today=TODAY)
PUBLISHED = [p for p in SITE.posts if not p.is_draft]
SERIES_INDEX = "/" + next(iter(SITE.series)) + "/"
POST = "/" + showcase_post(SITE).url_dir
WALKED = ["/", SERIES_INDEX, POST, "/404.html"]   # every kind of page: home, series index, post, a page without contents
SEARCH_TERM = "投机解码"
MIN_FOCUS_CONTRAST = 3.0
MAX_STOPS = 800
# the page's regions in the order a reader meets them (Material's layout)
REGIONS = ["skip", "header", "nav", "toc", "content", "top", "footer"]

# The element that has the focus (inside a diagram's shadow root too), what it looks like and where it
# is: its ring against the colour behind it, whether it is on screen, and whether it follows the stop
# before it in the document's order.
FOCUS_JS = r"""
async () => {
  let el = document.activeElement, host = null;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) { host = host || el; el = el.shadowRoot.activeElement; }
  if (!el || el === document.body || el === document.documentElement) return null;
  const rgb = (s) => {
    const m = s && s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (c, bg) => ({ r: c.r * c.a + bg.r * (1 - c.a), g: c.g * c.a + bg.g * (1 - c.a), b: c.b * c.a + bg.b * (1 - c.a), a: 1 });
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const behind = (start) => {   // the colour the ring stands on: the layers under the element, composited
    const layers = [];
    for (let e = start; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) layers.push(c);
      if (c && c.a >= 1) break;
    }
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  // a hidden radio button shows its focus on the label after it (Material's palette toggle)
  const hiddenInput = el.matches("input") && el.getBoundingClientRect().width <= 1 && el.nextElementSibling
    && el.nextElementSibling.matches("label");
  const shown = hiddenInput ? el.nextElementSibling : el;
  // on screen: inside what the reader sees (on a phone the visual viewport, which the focus scrolls),
  // not hidden, not faded out; the page has a second and a half to scroll it in and fade it in (the
  // skip link, heading anchors), on a busy machine too
  const vv = window.visualViewport || { offsetTop: 0, offsetLeft: 0, height: innerHeight, width: innerWidth };
  const inView = (b) => b.width > 0 && b.height > 0 && b.bottom > vv.offsetTop && b.right > vv.offsetLeft
    && b.top < vv.offsetTop + vv.height && b.left < vv.offsetLeft + vv.width;
  const seen = () => { const s = getComputedStyle(shown); return inView(shown.getBoundingClientRect()) && s.visibility !== "hidden" && Number(s.opacity) > 0.5; };
  for (const end = performance.now() + 1500; !seen() && performance.now() < end;) await new Promise((ok) => requestAnimationFrame(ok));
  const cs = getComputedStyle(shown), r = shown.getBoundingClientRect();
  const ring = rgb(cs.outlineColor), bg = behind(shown.parentElement || host);
  const x = ring ? lum(over(ring, bg)) : 0, y = lum(bg);
  const anchor = host || el;
  const regionOf = (e) => e.closest(".md-skip") ? "skip" : e.closest(".md-header") ? "header"
    : e.closest(".md-sidebar--primary") ? "nav" : e.closest(".md-sidebar--secondary") ? "toc"
    : e.closest(".md-content") ? "content" : e.closest(".md-top") ? "top" : e.closest(".md-footer") ? "footer" : "other";
  const prev = window.__lastStop;
  const follows = !prev || prev === anchor || !!(prev.compareDocumentPosition(anchor) & Node.DOCUMENT_POSITION_FOLLOWING);
  window.__lastStop = anchor;
  const href = el.getAttribute("href") || el.getAttribute("xlink:href");
  return {
    tag: el.tagName.toLowerCase(), cls: (el.getAttribute("class") || "").slice(0, 60), id: el.id || "",
    text: (el.textContent || el.getAttribute("aria-label") || el.getAttribute("title") || (hiddenInput ? shown.title : "") || "").replace(/\s+/g, " ").trim().slice(0, 40),
    href: href ? new URL(href, location.href).pathname : null, label: el.getAttribute("aria-label"), inMap: !!((host && host.matches("div.mermaid")) || el.closest("div.mermaid")),
    region: regionOf(anchor), tabindex: el.getAttribute("tabindex"), follows,
    onScreen: seen(),
    // where it is when it is not on screen (the failure message says it): its box, what the reader sees
    offScreen: seen() ? null : (() => { const b = shown.getBoundingClientRect(), c = getComputedStyle(shown);
      return `box ${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}x${Math.round(b.height)}, ` +
        `view ${Math.round(vv.offsetLeft)},${Math.round(vv.offsetTop)} ${Math.round(vv.width)}x${Math.round(vv.height)}, ` +
        `scrollY ${Math.round(scrollY)}, opacity ${c.opacity}, visibility ${c.visibility}`; })(),
    outline: cs.outlineStyle, outlineWidth: parseFloat(cs.outlineWidth) || 0,
    ratio: ring ? (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) : 0,
    scrolls: el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX), scrollLeft: el.scrollLeft,
  };
}
"""


def _page(browser, server, path: str, viewport=DESKTOP, scheme: str = "light", **kw):
    ctx = browser.new_context(viewport=viewport, color_scheme=scheme, is_mobile=viewport is PHONE,
                              has_touch=viewport is PHONE, device_scale_factor=1, **kw)
    ctx.add_init_script(INIT_SCRIPT)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(server.origin + path, wait_until="load")
    page.wait_for_function(READY_JS, arg=_diagrams(path), timeout=20_000)
    page.wait_for_timeout(200)   # a11y.js has looked at the drawn page
    page.wait_for_function(SCROLL_BOXES_MEASURED, timeout=5_000)   # and at the blocks not drawn yet
    page.errors = errors
    return ctx, page


def _diagrams(path: str) -> int:
    post = next((p for p in PUBLISHED if "/" + p.url_dir == path), None)
    return len(mermaid_fences(post)) if post else (1 if path == SERIES_INDEX else 0)


def tab(page, key: str = "Tab") -> dict | None:
    page.keyboard.press(key)
    return page.evaluate(FOCUS_JS)


def walk(page) -> list[dict]:
    """Every Tab stop of the page, from the top until the focus leaves the page or comes round again."""
    stops = []
    while len(stops) < MAX_STOPS:
        stop = tab(page)
        if stop is None or (stops and stop == stops[0]):
            break
        stops.append(stop)
    return stops


def ringed(stop: dict) -> bool:
    """The stop shows a focus ring: Chromium's own (`auto`, drawn in two tones to show on any ground), or
    an outline at least 2 px wide at MIN_FOCUS_CONTRAST against what it stands on."""
    return stop["outline"] == "auto" or (stop["outline"] != "none" and stop["outlineWidth"] >= 2
                                         and stop["ratio"] >= MIN_FOCUS_CONTRAST)


def tab_to(page, want, limit: int = MAX_STOPS) -> dict:
    """Press Tab until the focused element is one `want` accepts; fail naming the stops passed."""
    seen = []
    for _ in range(limit):
        stop = tab(page)
        if stop and want(stop):
            return stop
        seen.append(stop and (stop["tag"], stop["cls"], stop["text"]))
        if stop is None and len(seen) > 1:
            break
    pytest.fail(f"Tab never reached the element: passed {seen[:40]}")


# --- whole pages from the keyboard ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["desktop-light", "desktop-dark", "phone-light"])
@pytest.mark.parametrize("path", WALKED)
def test_every_tab_stop_is_visible_ringed_and_in_order(browser, server, path, mode):
    viewport, scheme = mode.split("-")
    ctx, page = _page(browser, server, path, viewport=PHONE if viewport == "phone" else DESKTOP, scheme=scheme)
    stops = walk(page)
    ctx.close()
    assert len(stops) < MAX_STOPS, f"{path}: more than {MAX_STOPS} Tab stops"
    where = lambda s: f"{s['tag']}.{s['cls']} {s['text']!r} ({s['region']})"   # noqa: E731
    hidden = [f"{where(s)}: {s['offScreen']}" for s in stops if not s["onScreen"]]
    assert not hidden, f"{path} ({mode}): Tab stops the reader cannot see: {hidden[:10]}"
    # Chromium's own ring (`auto`) is drawn in two tones, dark and light, to show on any ground
    faint = [f"{where(s)}: {s['outline']} {s['outlineWidth']}px, {s['ratio']:.2f}:1" for s in stops if not ringed(s)]
    assert not faint, f"{path} ({mode}): focus not visible at {MIN_FOCUS_CONTRAST}:1: {faint[:10]}"
    positive = [where(s) for s in stops if s["tabindex"] and s["tabindex"].lstrip("-").isdigit() and int(s["tabindex"]) > 0]
    assert not positive, f"{path}: a positive tabindex reorders the page: {positive}"
    jumps = [where(s) for s in stops if not s["follows"]]
    assert not jumps, f"{path}: Tab goes back in the page at {jumps[:5]}"
    regions = [s["region"] for s in stops]
    assert "other" not in regions, f"{path}: Tab stops outside the page's regions: {[where(s) for s in stops if s['region'] == 'other']}"
    order = [REGIONS.index(r) for r in regions]
    assert order == sorted(order), f"{path}: regions in Tab order {list(dict.fromkeys(regions))}"
    # the navigation: in the sidebar on the desktop (not on the home page, which hides it); on a phone in
    # the drawer, which the header's menu button opens; the 404 page has nothing to focus in its text
    needed = ("skip", "header", "footer") + (("content",) if path != "/404.html" else ()) \
        + (("nav",) if viewport == "desktop" and path != "/" else ())
    for region in needed:
        assert region in regions, f"{path} ({mode}): no Tab stop in the {region}"
    if path == SERIES_INDEX:
        maps = {s["href"] for s in stops if s["inMap"]}
        want = {"/" + p.url_dir for p in SITE.series_posts(SERIES_INDEX.strip("/"), include_drafts=False)}
        assert maps == want, f"{path}: the series map's links reached by Tab {sorted(maps)}, want {sorted(want)}"
    if path == POST:
        terms = [s for s in stops if s["tag"] == "abbr"]
        assert terms, f"{path}: no glossary term among the Tab stops"


def test_search_from_the_keyboard(browser, server):
    entry = next(e for s in SITE.series.values() for e in s.glossary if e.term == SEARCH_TERM)
    target = next(p for p in PUBLISHED if p.slug == entry.post)
    ctx, page = _page(browser, server, "/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.matches('input.md-search__input')"), "`/` does not open search"
    page.keyboard.type(SEARCH_TERM)
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda u: urlsplit(u).path == "/" + target.url_dir, timeout=10_000)
    assert not page.errors, page.errors
    ctx.close()


def test_navigation_map_links_and_palette_toggle_from_the_keyboard(browser, server):
    posts = SITE.series_posts(SERIES_INDEX.strip("/"), include_drafts=False)
    # the navigation: Tab to a post's link in the sidebar, Enter opens it
    ctx, page = _page(browser, server, "/" + posts[-1].url_dir)
    want = "/" + posts[0].url_dir
    tab_to(page, lambda s: s["region"] == "nav" and s["href"] == want)
    page.keyboard.press("Enter")
    page.wait_for_url(lambda u: urlsplit(u).path == want, timeout=10_000)
    # the palette toggle: Tab to it, Enter or Space switches the scheme
    for key in ("Enter", "Space"):
        page.goto(server.origin + SERIES_INDEX, wait_until="load")
        page.wait_for_function(READY_JS, arg=1, timeout=20_000)
        page.evaluate("() => { window.__lastStop = null; }")
        before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        tab_to(page, lambda s: s["region"] == "header" and "切换到" in s["text"])
        page.keyboard.press(key)
        page.wait_for_function("(b) => document.body.getAttribute('data-md-color-scheme') !== b", arg=before, timeout=5_000)
    page.goto(server.origin + SERIES_INDEX, wait_until="load")
    page.wait_for_function(READY_JS, arg=1, timeout=20_000)
    page.evaluate("() => { window.__lastStop = null; }")
    # the series map: Tab to a post's node, Enter opens the post
    target = "/" + posts[-1].url_dir
    tab_to(page, lambda s: s["inMap"] and s["href"] == target)
    page.keyboard.press("Enter")
    page.wait_for_url(lambda u: urlsplit(u).path == target, timeout=10_000)
    assert not page.errors, page.errors
    ctx.close()


def test_a_wide_table_scrolls_from_the_keyboard_on_a_phone(browser, server, built):
    for rel in site_pages(built):   # the first page with a table wider than the phone
        if "<table>" not in (built / rel / "index.html").read_text(encoding="utf-8") if rel.endswith("/") else True:
            continue
        path = "/" + rel
        ctx, page = _page(browser, server, path, viewport=PHONE)
        if page.evaluate("() => !!document.querySelector('[data-series-scroll] table, table[data-series-scroll]')"):
            break
        ctx.close()
    else:
        pytest.fail("no page has a table wider than a phone")
    box = tab_to(page, lambda s: s["scrolls"] and "表格" in (s["label"] or "") or s["tag"] == "table" and s["scrolls"])
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    moved = page.evaluate(FOCUS_JS)
    assert moved["scrollLeft"] > box["scrollLeft"], f"{path}: ArrowRight does not scroll the focused table ({moved})"
    ctx.close()


# A table below the first screen that holds `what` (a link, a glossary term), not drawn yet (series.css:
# the browser skips it until the reader comes near); the first such element gets an id to know it by.
UNDRAWN_TABLE_LINK_JS = r"""
(what) => {
  const undrawn = (w) => !w.firstElementChild.checkVisibility({ contentVisibilityAuto: true });
  const wrap = [...document.querySelectorAll(".md-content .md-typeset__scrollwrap")]
    .find((w) => w.querySelector(what) && undrawn(w));
  if (!wrap) return null;
  const target = wrap.querySelector(what);
  target.id = "series-test-target";
  return target.textContent.trim();
}
"""


def _undrawn_table_page(browser, server, what: str):
    """The first published post, on a phone, with a table holding `what` below the first screen that is
    not drawn yet: (context, page, path, the marked element's text)."""
    for post in PUBLISHED:
        path = "/" + post.url_dir
        ctx, page = _page(browser, server, path, viewport=PHONE)
        text = page.evaluate(UNDRAWN_TABLE_LINK_JS, what)
        if text:
            return ctx, page, path, text
        ctx.close()
    pytest.fail(f"no post has a table holding `{what}` left undrawn below a phone's first screen")


def test_a_link_in_a_table_below_the_screen_is_reached_and_drawn_on_focus(browser, server):
    """Tables are skipped below the screen whatever they hold; the keyboard still reaches a link or term in
    one, and the block is drawn for it: the stop is on screen with its ring."""
    ctx, page, path, text = _undrawn_table_page(browser, server, "a[href], abbr")
    stop = tab_to(page, lambda s: s["id"] == "series-test-target")
    assert stop["onScreen"], f"{path}: the focused {stop['tag']} {text!r} in a table below the screen is not on screen: {stop['offScreen']}"
    assert ringed(stop), stop
    drawn = page.evaluate("() => document.getElementById('series-test-target').closest('.md-typeset__table')"
                          ".checkVisibility({ contentVisibilityAuto: true })")
    assert drawn, f"{path}: the table holding the focused {text!r} is still not drawn"
    ctx.close()


def test_the_focus_stays_on_screen_when_the_page_grows_under_it(browser, server):
    """A block drawn after the browser scrolled the focus into view (content-visibility's estimate; a font)
    can push the focused element off the screen; the page brings it back. Here the growth is a block put
    above the footer once the footer's last link has the focus, with the browser's scroll anchoring (which
    would hide the effect for an insertion like this one) turned off."""
    ctx, page = _page(browser, server, "/", viewport=PHONE)
    stop = tab_to(page, lambda s: s["region"] == "footer" and s["tag"] == "a" and page.evaluate(
        "() => document.activeElement === [...document.querySelectorAll('.md-footer a')].pop()"))
    assert stop["onScreen"], stop
    page.evaluate("""() => { document.documentElement.style.overflowAnchor = 'none'; document.body.style.overflowAnchor = 'none';
        const grow = document.createElement('div'); grow.style.height = '400px';
        document.querySelector('.md-footer').before(grow); }""")
    page.wait_for_timeout(300)
    shown = page.evaluate("""() => { const r = document.activeElement.getBoundingClientRect();
        return r.bottom > 0 && r.top < visualViewport.height; }""")     # (on screen as FOCUS_JS counts it)
    ctx.close()
    assert shown, "the focused footer link was left below the screen when the page grew above it"


def test_a_table_below_the_screen_is_skipped_before_materials_script_wraps_it(browser, server):
    """Material's script puts each table in its scrolling box (`md-typeset__scrollwrap`) when it mounts,
    after the page has been laid out once; a table below the screen is skipped before that too (and
    without script), so the first layout and the restyles while the script mounts leave it alone. It is
    drawn when the reader comes to it."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    page = ctx.new_page()
    for post in PUBLISHED:
        page.goto(server.origin + "/" + post.url_dir, wait_until="load")
        bare = page.evaluate("""() => {
          const t = [...document.querySelectorAll('.md-content table')]
            .find((t) => t.getBoundingClientRect().top > 2 * innerHeight);
          if (!t) return null;
          t.id = 'series-test-table';
          return { wrapped: !!t.closest('.md-typeset__scrollwrap'),
                   drawn: t.firstElementChild.checkVisibility({ contentVisibilityAuto: true }) }; }""")
        if bare:
            break
    else:
        pytest.fail("no post has a table two screens down on a phone")
    assert not bare["wrapped"], f"/{post.url_dir}: the table is wrapped without Material's script"
    assert not bare["drawn"], f"/{post.url_dir}: a table below the screen is drawn before Material's script wraps it"
    page.evaluate("document.getElementById('series-test-table').scrollIntoView({ block: 'center' })")
    # a page without script runs no animation frames for a wait in the page: ask from here until drawn
    deadline = time.monotonic() + 5
    while not (drawn := page.evaluate("""() => { const t = document.getElementById('series-test-table');
        return t.firstElementChild.checkVisibility({ contentVisibilityAuto: true })
          && t.getBoundingClientRect().height > 0; }""")) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert drawn, f"/{post.url_dir}: the table is not drawn when the reader scrolls to it"
    ctx.close()


def test_a_table_drawn_after_a_scheme_switch_has_the_new_colours_at_once(browser, server):
    """A table skipped while the reader switches to dark mode is restyled when it comes into view, after
    the switch: its links show the dark scheme's colour from the first frame, not a fade from the light
    one (series.css: no transitions in the blocks that are skipped whatever they hold)."""
    # (a link: its colour moves on hover; a term's does not)
    ctx, page, path, text = _undrawn_table_page(browser, server, "a[href]")
    assert toggle_scheme(page) == "slate"
    colour = """async () => { const el = document.getElementById('series-test-target');
      el.scrollIntoView({ block: 'center' });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return getComputedStyle(el).color; }"""
    first = page.evaluate(colour)
    page.wait_for_timeout(500)
    settled = page.evaluate(colour)
    assert first == settled, f"{path}: {text!r} in a table drawn after the switch shows {first}, then {settled}"
    ctx.close()


# Every display formula of the page laid out as it is now (a block below the screen too), by its
# place among the page's formulas: whether it is wider than its box, and its tab stop.
WIDE_FORMULAS_JS = r"""
() => [...document.querySelectorAll(".md-content div.arithmatex")].map((box, i) => {
  if (box.firstElementChild) box.firstElementChild.getBoundingClientRect();
  return { i, wide: box.scrollWidth > box.clientWidth + 1, tabindex: box.getAttribute("tabindex") };
}).filter((f) => f.wide)
"""
KATEX_FONTS = "**/KaTeX_*.woff2"


def _hold(page, pattern: str) -> list:
    """The requests of `pattern` are held, unanswered, in the list returned, until each is let through."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held


def test_a_formula_a_late_font_widens_gets_its_tab_stop(browser, server):
    """KaTeX's fonts arrive after the text is laid out, some only when a formula below the screen is first
    measured, and a formula set in its font can be wider than in the fallback: wide enough to scroll.
    While a font loads a11y.js does not say its boxes are measured; when the font arrives the widened
    formula gets its tab stop. Here the fonts are held back until a formula has been measured without
    them, then let through."""
    for post in (p for p in PUBLISHED if has_math(p)):
        path = "/" + post.url_dir
        ctx = browser.new_context(viewport=DESKTOP, color_scheme="light", device_scale_factor=1)
        page = ctx.new_page()
        held = _hold(page, KATEX_FONTS)
        page.goto(server.origin + path, wait_until="domcontentloaded")   # held fonts hold the load event
        page.wait_for_function("() => document.documentElement.hasAttribute('data-series-scroll-boxes')"
                               " && document.fonts.status === 'loading'")
        page.wait_for_timeout(500)   # a11y.js has measured what it can
        state = page.evaluate("() => document.documentElement.getAttribute('data-series-scroll-boxes')")
        before = {f["i"] for f in page.evaluate(WIDE_FORMULAS_JS)}
        for route in held:
            route.continue_()
        page.unroute(KATEX_FONTS)
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        page.wait_for_function(SCROLL_BOXES_MEASURED, timeout=5_000)
        widened = [f for f in page.evaluate(WIDE_FORMULAS_JS) if f["i"] not in before]
        if not widened:
            ctx.close()
            continue
        assert state == "measuring", f"{path}: a11y.js says {state!r} while KaTeX's fonts are still loading"
        missing = [f["i"] for f in widened if f["tabindex"] != "0"]
        assert not missing, f"{path}: display formulas {missing} (by place) are wide in their font and have no tab stop"
        found = run_axe(page, rules=["scrollable-region-focusable"])
        assert not found, f"{path}: {found}"
        ctx.close()
        return
    pytest.fail("no post has a display formula that its font makes wider than its box on the desktop")


# --- glossary terms ------------------------------------------------------------------------------------------------
def _term_post():
    return next((p, t) for p in PUBLISHED for t in render_post(p, SITE).glossary_terms[:1])


def _description(page, selector: str) -> str:
    """The accessible description a screen reader gets for the element (Chromium's accessibility tree)."""
    cdp = page.context.new_cdp_session(page)
    doc = cdp.send("DOM.getDocument", {"depth": 0})
    node = cdp.send("DOM.querySelector", {"nodeId": doc["root"]["nodeId"], "selector": selector})
    ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node["nodeId"], "fetchRelatives": False})
    mine = next(n for n in ax["nodes"] if not n.get("ignored"))
    return (mine.get("description") or {}).get("value", "")


def test_glossary_term_reaches_the_keyboard_and_a_screen_reader(browser, server):
    post, term = _term_post()
    entry = next(e for e in SITE.series_of(post).glossary if e.term == term)
    ctx, page = _page(browser, server, "/" + post.url_dir)
    assert _description(page, "abbr.series-term") == tooltip(entry), "the term's description before focus"
    tab_to(page, lambda s: s["tag"] == "abbr")
    tip = page.locator(".md-tooltip2--active")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.inner_text().strip() == tooltip(entry)
    assert _description(page, "abbr.series-term") == tooltip(entry), "the term's description while focused"
    page.keyboard.press("Tab")   # on to the next stop: this term's tooltip closes
    page.locator(".md-tooltip2--active", has_text=tooltip(entry)).wait_for(state="hidden", timeout=5_000)
    ctx.close()


def test_glossary_term_opens_its_tooltip_on_a_tap(browser, server):
    post, term = _term_post()
    entry = next(e for e in SITE.series_of(post).glossary if e.term == term)
    ctx, page = _page(browser, server, "/" + post.url_dir, viewport=PHONE)
    page.locator("abbr.series-term").first.tap()
    tip = page.locator(".md-tooltip2--active")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.inner_text().strip() == tooltip(entry)
    ctx.close()


# --- reduced motion ----------------------------------------------------------------------------------------------
# Every element (and ::before / ::after) with a transition or an animation longer than zero, after the
# reader has hovered a glossary term, opened search and closed it (so the tooltip and the search box exist).
MOVING_JS = r"""
() => {
  const secs = (v) => Math.max(0, ...v.split(",").map((s) => parseFloat(s) * (s.trim().endsWith("ms") ? 0.001 : 1) || 0));
  const out = [];
  for (const el of document.querySelectorAll("*")) {
    for (const pseudo of [null, "::before", "::after"]) {
      const cs = getComputedStyle(el, pseudo);
      if (pseudo && (cs.content === "none" || cs.content === "normal")) continue;
      const t = secs(cs.transitionDuration) + secs(cs.transitionDelay), a = cs.animationName !== "none" ? secs(cs.animationDuration) : 0;
      if (t > 0 || a > 0) out.push((el.tagName.toLowerCase() + "." + (el.getAttribute("class") || "").trim().split(/\s+/)[0] + (pseudo || "")));
    }
  }
  return [...new Set(out)];
}
"""


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_reduced_motion_stops_the_sites_transitions_and_animations(browser, server, viewport):
    post, _ = _term_post()
    moving = {}
    for motion in ("no-preference", "reduce"):
        ctx, page = _page(browser, server, "/" + post.url_dir, viewport=DESKTOP if viewport == "desktop" else PHONE,
                          reduced_motion=motion)
        page.locator("abbr.series-term").first.hover() if viewport == "desktop" else page.locator("abbr.series-term").first.tap()
        page.locator(".md-tooltip2--active").wait_for(state="visible", timeout=5_000)
        page.keyboard.press("/")
        page.locator("input.md-search__input").wait_for(state="visible")
        page.keyboard.press("Escape")
        moving[motion] = page.evaluate(MOVING_JS)
        ctx.close()
    assert len(moving["no-preference"]) >= 5, f"the site should animate without the preference: {moving['no-preference']}"
    for what in (".md-header", ".md-search__inner"):   # (the tooltip fades in on some hosts' phones only)
        assert any(what in m for m in moving["no-preference"]), f"{what} should move without the preference"
    assert moving["reduce"] == [], f"{viewport}: still moving under prefers-reduced-motion: {moving['reduce'][:20]}"
