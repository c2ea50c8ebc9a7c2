"""The Content-Security-Policy in a real browser (Debian's Chromium through Playwright).

The real site, built by each host and served with the `_headers` file's headers as a static host would
(tests/conftest.py `served`), so each page runs under both the meta policy and the header policy. The
sweep (tests/support/sweep.py) opens every page once per viewport and records the policy's violations
(`securitypolicyviolation` events, recorded by an init script, and the console's reports) over the
whole visit, and whether its diagrams and formulas (drawn by the build: inline SVG with a stylesheet of
its own, KaTeX's HTML) show; the tests below read those records, page by page. The same visits'
requests, console errors and drawing libraries are checked in tests/test_browser.py. A script the
policy does not allow is shown to be blocked and reported, so the listener is known to work; search,
instant navigation and `mkdocs serve`'s live reload run under the policy too.
"""
from __future__ import annotations

import pytest

from support.browser_harness import drawing_requests
from support.sweep import CSP_INIT, DIAGRAMS_DRAWN, FORMULAS_DRAWN, PAGES, is_csp_report


class Watch:
    """One browser page with everything the policy could complain about recorded."""

    def __init__(self, browser, base: str):
        self.base = base
        self.context = browser.new_context()
        self.context.add_init_script(CSP_INIT)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: None if r.url.startswith((base, "data:", "blob:")) else self.foreign.append(r.url))

    def violations(self) -> list:
        return self.page.evaluate("window.__csp") + [m for m in self.console if is_csp_report(m)]

    def close(self):
        self.context.close()


def test_the_policy_blocks_what_it_should_and_the_listener_sees_it(server, browser):
    base = server.base
    w = Watch(browser, base)
    try:
        w.page.goto(base, wait_until="load")
        w.page.evaluate("""() => { const s = document.createElement('script');
                                   s.textContent = 'window.__injected = 1'; document.body.appendChild(s); }""")
        w.page.wait_for_function("() => window.__csp.length > 0", timeout=10_000)
        assert w.page.evaluate("window.__injected") is None
        seen = w.page.evaluate("window.__csp")
        assert seen and all(v["directive"].startswith("script-src") for v in seen), seen
    finally:
        w.close()


@pytest.mark.parametrize("path", PAGES)
def test_no_page_logs_a_csp_violation(visits, path):
    v = visits[path]
    assert not v.error and v.csp is not None, f"{path} ({v.viewport}): {v.error}"
    assert v.csp == [], f"{path} ({v.viewport}): {v.csp}"


@pytest.mark.parametrize("path", PAGES)
def test_diagrams_and_formulas_show_under_the_policy(visits, path):
    v = visits[path]
    assert not v.error, f"{path} ({v.viewport}): {v.error}"
    failed = [kind for kind, shown in v.drawn.items() if not shown]
    assert not failed, f"{path} ({v.viewport}): {' and '.join(failed)} not shown as the build drew them"


def test_the_sweep_saw_diagrams_and_formulas_drawn(visits):
    drawn = {kind: sum(1 for v in visits.values() if v.drawn.get(kind)) for kind in ("diagrams", "formulas")}
    assert drawn["diagrams"] >= 3 and drawn["formulas"] >= 1, drawn


def test_search_and_instant_navigation_work_under_the_policy(server, browser):
    base = server.base
    w = Watch(browser, base)
    try:
        w.page.goto(base, wait_until="load")
        search = w.page.locator("input.md-search__input")
        search.click()
        search.fill("推理")
        w.page.wait_for_selector(".md-search-result__item", timeout=30_000)
        assert w.page.locator(".md-search-result__item").count() > 0
        assert w.violations() == []      # Pagefind's WebAssembly runs under 'wasm-unsafe-eval', nothing more
        # Material's instant navigation: the next page arrives by fetch, its diagrams and formulas in it
        w.page.goto(base + "train-infer-accel/", wait_until="load")
        w.page.evaluate("window.__same_document = true")
        w.page.locator(".md-content a[href*='metrics-panorama']").first.click()
        w.page.wait_for_url("**/metrics-panorama/**", timeout=30_000)
        assert w.page.evaluate("window.__same_document") is True    # no full reload: instant navigation
        w.page.wait_for_function(DIAGRAMS_DRAWN, timeout=10_000)
        w.page.wait_for_function(FORMULAS_DRAWN, timeout=10_000)
        w.page.wait_for_timeout(200)
        assert w.violations() == []
        assert w.errors == [] and w.foreign == [] and drawing_requests(w.requests) == []
    finally:
        w.close()


def test_mkdocs_serve_live_reload_runs_under_the_policy(tmp_path, browser):
    """`mkdocs serve` injects its live-reload script inline: the policy allows exactly that script, so
    the preview logs no violation and reloads itself when a post changes."""
    from support.sitebuild import make_project
    from support.serving import Server
    proj = make_project(tmp_path)
    srv = Server(proj, tmp_path / "serve.log")
    w = Watch(browser, f"http://127.0.0.1:{srv.port}/")
    try:
        srv.wait("the first build", lambda: srv.get("")[0] == 200, deadline=180)
        w.page.goto(w.base + "demo/second/", wait_until="load")
        w.page.wait_for_function(FORMULAS_DRAWN, timeout=30_000)
        post = proj / "series" / "demo" / "second.md"
        post.write_text(post.read_text(encoding="utf-8").replace("再次出现时不再加提示", "实时预览已经刷新"),
                        encoding="utf-8")
        w.page.wait_for_function("() => document.body.innerText.includes('实时预览已经刷新')", timeout=90_000)
        assert w.violations() == []
        assert w.errors == []
    finally:
        w.close()
        srv.stop()
