"""The Content-Security-Policy in a real browser (Debian's Chromium through Playwright).

The real site is built and served by a small static server that also sends the `_headers` file's
headers, as a static host would; so each page runs under both the meta policy and the header policy.
Every page is opened; its diagrams and formulas (drawn by the build: inline SVG with a stylesheet of
its own, KaTeX's HTML) must show without any drawing script, search must answer, and no page may log a
CSP violation (`securitypolicyviolation` events, recorded by an init script, and the console). A
script the policy does not allow is shown to be blocked and reported, so the listener is known to work.
"""
from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from support.browser_harness import drawing_requests
from support.sitebuild import HOSTS, ROOT, build


INIT = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  {directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile, line: e.lineNumber}));
"""
# the build's drawing, in the page (a diagram drawn by a script, in a shadow root, does not count); its
# own stylesheet applies under the policy (Material's theme colours reach its nodes' shapes)
DIAGRAMS_DRAWN = """() => {
  const d = [...document.querySelectorAll('.mermaid')];
  const styled = (e) => {
    const shapes = [...e.querySelectorAll('g.node rect, g.node path, g.node polygon, rect.actor')];
    return shapes.length === 0 || shapes.some(s => getComputedStyle(s).fill !== 'rgb(0, 0, 0)');
  };
  return d.length > 0 && d.every(e => !e.shadowRoot && e.querySelector(':scope > svg > g, :scope > svg > style')
    && styled(e) && e.querySelector(':scope > svg').getBoundingClientRect().height > 0);
}"""
FORMULAS_DRAWN = """() => [...document.querySelectorAll('.arithmatex')].every(e => e.querySelector('.katex-html')
  && e.querySelector('.katex-html').getBoundingClientRect().width > 0)"""


def headers_of(site: Path) -> list[tuple[str, str]]:
    """The headers `_headers` gives every path (`/*`), the Netlify / Cloudflare Pages format."""
    out = []
    for line in (site / "_headers").read_text(encoding="utf-8").splitlines():
        if line.startswith("  ") and ":" in line:
            name, value = line.strip().split(":", 1)
            out.append((name.strip(), value.strip()))
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".woff2": "font/woff2",
                      ".json": "application/json", ".svg": "image/svg+xml"}
    site_headers: list[tuple[str, str]] = []

    def end_headers(self):
        for name, value in self.site_headers:
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, *args):
        pass


class StaticHost:
    """A static host for a built site on 127.0.0.1 that sends the site's `_headers` with every file.
    Its address is known before the build (site_url must be it: Material's instant navigation only
    follows links of its own site_url); `start()` once the site is built."""

    def __init__(self, out: Path):
        self.out = out
        self.handler = type("SiteHandler", (Handler,), {"site_headers": []})
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                      functools.partial(self.handler, directory=str(out)))
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def start(self):
        self.handler.site_headers = headers_of(self.out)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module", params=HOSTS)
def site(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"csp-{request.param}") / "site"
    host = StaticHost(out)
    # (not --strict: the posts' own link problems are not this test's business)
    r = build(ROOT, out, strict=False, host=request.param, SITE_URL=host.base)
    assert r.returncode == 0, r.stderr[-3000:]
    host.start()
    yield out, host.base
    host.stop()
    shutil.rmtree(out, ignore_errors=True)




class Watch:
    """One browser page with everything the policy could complain about recorded."""

    def __init__(self, browser, base: str):
        self.base = base
        self.context = browser.new_context()
        self.context.add_init_script(INIT)
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
        return self.page.evaluate("window.__csp") + [m for m in self.console if "Content Security Policy" in m
                                                      or "Refused to" in m]

    def close(self):
        self.context.close()


def urls(site: Path, base: str) -> list[str]:
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    return [base + (p[:-len("index.html")] if p.endswith("index.html") else p) for p in pages]


def test_the_policy_blocks_what_it_should_and_the_listener_sees_it(site, browser):
    out, base = site
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


def test_no_page_logs_a_csp_violation_and_diagrams_and_formulas_draw(site, browser):
    out, base = site
    w = Watch(browser, base)
    drawn = {"diagrams": 0, "formulas": 0}
    try:
        for url in urls(out, base):
            w.page.goto(url, wait_until="load")
            if w.page.locator(".mermaid").count():
                w.page.wait_for_function(DIAGRAMS_DRAWN, timeout=10_000)
                drawn["diagrams"] += 1
            if w.page.locator(".arithmatex").count():
                w.page.wait_for_function(FORMULAS_DRAWN, timeout=10_000)
                drawn["formulas"] += 1
            w.page.wait_for_timeout(200)    # late violations (fonts, workers)
            assert w.violations() == [], url
        assert w.errors == [], w.errors
        assert w.foreign == [], w.foreign
        assert drawing_requests(w.requests) == [], drawing_requests(w.requests)
        assert drawn["diagrams"] >= 3 and drawn["formulas"] >= 1, drawn
    finally:
        w.close()


def test_search_and_instant_navigation_work_under_the_policy(site, browser):
    out, base = site
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
