"""The site search as a reader uses it, in Chromium, on the real site built by `mkdocs build`:

- nothing of the index is fetched before the reader opens search (Material's index is gone);
- the box is in Material's header: the magnifier, "/", "s" and "f" open it, Esc closes it, the arrow
  keys walk the results and Enter opens one (by instant navigation, which closes the search);
- a result shows the post's title, where in the site and the post it matched, and an excerpt with
  the query highlighted, readable (4.5:1) in light and dark mode, on a desktop and on a phone;
- relevance: every query of tests/search/queries.yml (drawn from the glossary and the posts'
  headings) finds its post among the first 3 results;
- under the site's Content-Security-Policy, with every request to the site itself.
"""
from __future__ import annotations

import pytest

from support.browser_harness import DESKTOP, PHONE, ROOT, TODAY, SiteServer, build_site

from support.sitebuild import HOSTS
from support.search_harness import PAGEFIND_TOP, TOP, load_queries, precision_at, slug_of
from serieskit.model.loader import load_site

SITE = load_site(ROOT, today=TODAY)
MIN_CONTRAST = 4.5

# The contrast of every text of the open search (title, where, excerpt, highlights, the count line),
# against the background painted under it (the first opaque ancestor, translucent layers blended).
RESULT_CONTRAST = r"""() => {
  const rgba = s => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const out = [];
  const els = document.querySelectorAll(".md-search-result__meta, .md-search-result__item h1, .md-search-result__item p, .md-search-result__item mark, .series-search-more button");
  for (const el of els) {
    if (!el.textContent.trim() || !el.getClientRects().length) continue;
    const bg = background(el), fg = over(rgba(getComputedStyle(el).color), bg);
    const x = lum(fg), y = lum(bg);
    out.push({ text: el.textContent.trim().slice(0, 30), tag: el.tagName, ratio: (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) });
  }
  return out;
}"""


@pytest.fixture(scope="module", params=HOSTS)
def served(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"search-{request.param}") / "site"
    out.mkdir()
    with SiteServer(out, gzip=True) as srv:
        r = build_site(out, ROOT, today=TODAY, site_url=srv.base, host=request.param)
        assert r.returncode == 0, (r.stdout + r.stderr)[-4000:]
        yield srv, out


def _open_page(browser, srv, viewport=DESKTOP, scheme="light"):
    ctx = browser.new_context(viewport=viewport, color_scheme=scheme, is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
    ctx.add_init_script("""window.__csp = []; document.addEventListener('securitypolicyviolation',
        e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));""")
    page = ctx.new_page()
    page.requests = []
    page.problems = []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)
    return ctx, page


@pytest.fixture
def reader(browser, served):
    srv, _ = served
    ctx, page = _open_page(browser, srv)
    yield page
    assert all(u.startswith(srv.base) or u.startswith(("data:", "blob:")) for u in page.requests), \
        [u for u in page.requests if not u.startswith(srv.base)]
    assert page.evaluate("window.__csp") == [] and page.problems == [], (page.evaluate("window.__csp"), page.problems)
    ctx.close()


def _post_url(slug: str) -> str:
    post = next(p for p in SITE.posts if p.slug == slug and not p.is_draft)
    return "/" + post.url_dir


def _is_open(page) -> bool:
    return page.evaluate("document.getElementById('__search').checked")


def _open_search(page):
    """As a reader does: the magnifier on a phone, the box in the header on a wide screen."""
    label = page.locator("label.md-header__button[for=__search]")
    if label.is_visible():
        label.click()
    else:
        page.locator("input.md-search__input").click()


def _ask(page, q: str):
    page.locator("input.md-search__input").fill(q)
    page.wait_for_function("""() => /找到|没有找到/.test(document.querySelector('[data-series-search-meta]').textContent)""",
                           timeout=30_000)


def test_nothing_of_the_index_is_fetched_before_the_reader_searches(reader, served):
    srv, _ = served
    for path in ("", _post_url("speculative-decoding-eagle3")[1:], "about/"):
        reader.goto(srv.base + path, wait_until="networkidle")
    assert not [u for u in reader.requests if "/pagefind/" in u or "search_index" in u or "/workers/search" in u], \
        [u for u in reader.requests if "search" in u]
    reader.keyboard.press("/")
    assert _is_open(reader)
    _ask(reader, "投机解码")
    fetched = [u for u in reader.requests if "/pagefind/" in u]
    assert any(u.endswith("pagefind.js") for u in fetched) and any(".pf_fragment" in u for u in fetched), fetched


@pytest.mark.parametrize("key", ["/", "s", "f"])
def test_the_shortcuts_open_search_and_esc_closes_it(reader, served, key):
    srv, _ = served
    reader.goto(srv.base + "about/", wait_until="load")
    assert not _is_open(reader)
    reader.keyboard.press(key)
    assert _is_open(reader)
    assert reader.evaluate("document.activeElement.matches('input.md-search__input')")
    reader.keyboard.type("s f /")       # typed into the box, not taken as shortcuts
    assert reader.locator("input.md-search__input").input_value() == "s f /"
    reader.keyboard.press("Escape")
    assert not _is_open(reader)
    assert not reader.evaluate("document.activeElement.matches('input.md-search__input')")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_magnifier_or_the_box_opens_search_and_focuses_the_box(browser, served, viewport):
    srv, _ = served
    ctx, page = _open_page(browser, srv, viewport)
    try:
        page.goto(srv.base, wait_until="load")
        _open_search(page)
        assert _is_open(page)
        page.wait_for_function("() => document.activeElement.matches('input.md-search__input')", timeout=5_000)
        page.keyboard.press("Escape")
        assert not _is_open(page)
    finally:
        ctx.close()


def test_a_result_shows_title_where_and_a_highlighted_excerpt(reader, served):
    srv, _ = served
    reader.goto(srv.base + "about/", wait_until="load")
    reader.keyboard.press("/")
    _ask(reader, "拒绝采样")
    first = reader.locator(".md-search-result__item").first
    post = next(p for p in SITE.posts if p.slug == "speculative-decoding-eagle3")
    assert first.locator("h1").inner_text().strip() == post.title
    where = first.locator(".series-search-where").inner_text()
    assert where.startswith(SITE.series_of(post).title + " › "), where     # the series, then the section
    marks = first.locator("mark").all_inner_texts()
    assert marks and all("拒绝" in m or "采样" in m for m in marks), marks
    assert "\u200b" not in first.inner_text()
    assert first.locator("a").get_attribute("href").startswith(_post_url("speculative-decoding-eagle3") + "#")
    assert "个符合条件的结果" in reader.locator("[data-series-search-meta]").inner_text()


def test_arrow_keys_walk_the_results_and_enter_opens_one_by_instant_navigation(reader, served):
    srv, _ = served
    reader.goto(srv.base + "about/", wait_until="load")
    reader.evaluate("window.__same_document = true")
    reader.keyboard.press("/")
    _ask(reader, "GRPO")
    links = reader.locator(".md-search-result__link")
    assert links.count() >= 2
    reader.keyboard.press("ArrowDown")
    assert reader.evaluate("document.activeElement === document.querySelectorAll('.md-search-result__link')[0]")
    reader.keyboard.press("ArrowDown")
    assert reader.evaluate("document.activeElement === document.querySelectorAll('.md-search-result__link')[1]")
    reader.keyboard.press("ArrowUp")
    reader.keyboard.press("ArrowUp")
    assert reader.evaluate("document.activeElement.matches('input.md-search__input')")
    reader.keyboard.press("ArrowDown")
    target = links.first.get_attribute("href")
    reader.keyboard.press("Enter")
    reader.wait_for_url(f"**{target.split('#')[0]}**", timeout=30_000)
    assert reader.evaluate("window.__same_document") is True, "instant navigation, not a full reload"
    reader.wait_for_function("() => !document.getElementById('__search').checked", timeout=5_000)
    # and search works again on the new page (the header stayed)
    reader.keyboard.press("/")
    _ask(reader, "陈旧度")
    assert reader.locator(".md-search-result__item").count() >= 1


def test_enter_in_the_box_opens_the_first_result(reader, served):
    srv, _ = served
    reader.goto(srv.base + "about/", wait_until="load")
    reader.keyboard.press("/")
    _ask(reader, "Tailscale")
    target = reader.locator(".md-search-result__link").first.get_attribute("href")
    reader.keyboard.press("Enter")
    reader.wait_for_url(f"**{target.split('#')[0]}**", timeout=30_000)


def test_more_results_load_on_request(reader, served):
    srv, _ = served
    reader.goto(srv.base + "about/", wait_until="load")
    reader.keyboard.press("/")
    _ask(reader, "延迟")
    items = reader.locator(".md-search-result__item:not(.series-search-more)")
    assert items.count() == 4      # PAGE in search.js: a few at a time, each fragment fetched when shown
    more = reader.locator(".series-search-more button")
    assert "还有" in more.inner_text()
    more.click()
    reader.wait_for_function("() => document.querySelectorAll('.md-search-result__item:not(.series-search-more)').length > 4",
                             timeout=10_000)


@pytest.mark.parametrize("viewport,scheme", [(DESKTOP, "light"), (DESKTOP, "dark"), (PHONE, "light"), (PHONE, "dark")],
                         ids=["desktop-light", "desktop-dark", "phone-light", "phone-dark"])
def test_results_read_well_in_light_and_dark_on_desktop_and_phone(browser, served, viewport, scheme):
    srv, _ = served
    ctx, page = _open_page(browser, srv, viewport, scheme)
    try:
        page.goto(srv.base + _post_url("metrics-panorama")[1:], wait_until="load")
        _open_search(page)
        _ask(page, "首字延迟")
        texts = page.evaluate(RESULT_CONTRAST)
        assert len(texts) >= 10, texts
        low = [t for t in texts if t["ratio"] < MIN_CONTRAST]
        assert low == [], low
        # where the box rests once its opening transition (a slide of 5 %) has ended
        page.evaluate("""() => Promise.all([...document.querySelectorAll('.md-search__inner, .md-search__output')]
            .flatMap(e => e.getAnimations()).map(a => a.finished))""")
        box = page.locator(".md-search__output").bounding_box()
        assert box and box["width"] <= viewport["width"] + 0.5 and box["x"] >= -0.5, box
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shots = ROOT / "artifacts" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"search-{'phone' if viewport is PHONE else 'desktop'}-{scheme}.png"))
        assert page.evaluate("window.__csp") == []
    finally:
        ctx.close()


def test_every_query_of_the_relevance_set_finds_its_post_in_the_top_3(reader, served):
    srv, _ = served
    queries = load_queries()
    assert len(queries) >= 30
    reader.goto(srv.base + "about/", wait_until="load")
    results = reader.evaluate(PAGEFIND_TOP, [[q["q"] for q in queries], TOP])
    precision, misses = precision_at(queries, results)
    print(f"\nPagefind precision@{TOP}: {precision:.3f} over {len(queries)} queries "
          f"(scripts/bench_search.py prints it beside Material's search)")
    assert misses == [], misses


def test_the_relevance_set_is_drawn_from_the_glossary_and_the_headings():
    """Each query still comes from where it says: a spelling of a glossary term whose post is the
    expected post, or words of a heading of that post."""
    spellings = {}
    for s in SITE.series.values():
        for e in s.glossary:
            for w in (e.term, e.en, e.abbr, *e.aliases):
                if w:
                    spellings.setdefault(w.casefold(), set()).add(e.post)
    published = {p.slug: p for p in SITE.posts if not p.is_draft}
    kinds = {"zh": 0, "en": 0, "mixed": 0}
    for q in load_queries():
        assert q["post"] in published, q
        if q["from"] == "glossary":
            assert q["post"] in spellings.get(q["q"].casefold(), set()), q
        else:
            headings = [ln for ln in published[q["post"]].path.read_text(encoding="utf-8").splitlines()
                        if ln.startswith("#")]
            assert any(q["q"] in h for h in headings), q
        han = any("\u4e00" <= c <= "\u9fff" for c in q["q"])
        latin = any(c.isascii() and c.isalpha() for c in q["q"])
        kinds["mixed" if han and latin else "zh" if han else "en"] += 1
    assert all(n >= 5 for n in kinds.values()), kinds      # Chinese, English and mixed queries
    assert slug_of("/a/b/#x") == "b"
