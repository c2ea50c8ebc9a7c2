"""The sweep: every page of the real site read once per viewport (desktop, phone), as a reader gets it,
and everything the browser modules check about a page recorded from that one visit (tests/conftest.py
`desktop`, `phone`, `visits`): the network, the console, the Content-Security-Policy's violations
(`securitypolicyviolation` events, recorded by an init script, and the console's reports), whether the
build's diagrams and formulas show under the policy, what is on screen in light and dark mode, the
layout on a phone, axe-core's findings and the skip link. The tests assert over these records, each
naming its page; nothing opens a page of the real site a second time to look at the same thing.

Each viewport's sweep of a build runs in a process of its own with its own Chromium (`read_site_apart`,
this module run as a script), one sweep at a time, in the background from the session's start
(tests/support/sites.py). Most of a sweep is axe-core working in one page's renderer, on one core.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from support.browser_harness import (DESKTOP, INIT_SCRIPT, LAYOUT_JS, PHONE, READ_JS, READY_JS, ROOT, TODAY, run_axe,
                                     showcase_post)
from serieskit.analysis.mermaid import mermaid_fences
from serieskit.model.loader import load_site

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
READY_TIMEOUT_MS = 20_000
DRAWN_TIMEOUT_MS = 10_000

# --- the model: what every page should show, from the sources -------------------------------------------
SITE = load_site(ROOT, today=TODAY)
CONV = SITE.conv
PUBLISHED = [p for p in SITE.posts if not p.is_draft]
POSTS_BY_URL = {"/" + p.url_dir: p for p in PUBLISHED}
PALETTE = {c.name: c.fill.lower() for c in CONV.palette}

# --- the Content-Security-Policy, as the browser reports it ----------------------------------------------
CSP_INIT = """
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


def is_csp_report(text: str) -> bool:
    """A console message in which the browser reports something the policy refused."""
    return "Content Security Policy" in text or "Refused to" in text


def url_of(site_path: str) -> str:
    """URL path of a page of the site's source tree (`a/index.md` -> `/a/`, `a/b.md` -> `/a/b/`)."""
    p = SITE.post_at(site_path)
    if p is not None:
        return "/" + p.url_dir
    stem = site_path[:-3] if site_path.endswith(".md") else site_path
    if stem == "index":
        return "/"
    if stem.endswith("/index"):
        return "/" + stem[:-len("index")]
    return "/" + stem + "/"


def expected_pages() -> list[str]:
    pages = {url_of(sp) for sp in SITE.pages if not (SITE.post_at(sp) and SITE.post_at(sp).is_draft)}
    pages.add("/404.html")
    return sorted(pages)


PAGES = expected_pages()
SERIES_INDEXES = ["/" + s.slug + "/" for s in SITE.series.values()]
SHOWCASE = {"home": "/", "series-index": SERIES_INDEXES[0] if SERIES_INDEXES else "/",
            "post": "/" + showcase_post(SITE).url_dir}   # the screenshots


# --- the session: the real site of each host (tests/conftest.py `served`), one browser ---------------------------


@dataclass
class Visit:
    """One page as a reader got it: the network, the console, and what was on screen."""
    path: str
    viewport: str
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    csp_console: list[str] = field(default_factory=list)   # the console's CSP reports, of any level
    ready: bool = False
    error: str = ""
    light: dict = field(default_factory=dict)
    dark: dict | None = None
    layout: dict | None = None
    axe: dict = field(default_factory=dict)   # "light" / "dark": axe-core's violations
    skip: list = field(default_factory=list)  # the focus after Tab, Enter, Tab (the skip link)
    csp: list | None = None                   # the policy's violations over the whole visit (None: not read)
    drawn: dict = field(default_factory=dict)  # "diagrams" / "formulas": shown under the policy (absent: none on the page)


def expected_diagrams(built: Path, path: str) -> int:
    """A post's diagrams, from its source; another page's (the series map, docs pages), every diagram
    the build was given: drawn, left as a fence, or shown as its source because it did not draw."""
    post = POSTS_BY_URL.get(path)
    if post is not None:
        return len(mermaid_fences(post))
    f = built / (path.lstrip("/") + "index.html" if path.endswith("/") else path.lstrip("/"))
    return len(re.findall(r'<(?:pre|div)\s+class="(?:mermaid|series-draw-error)"', f.read_text(encoding="utf-8")))


# Where the focus is: the skip link, the page's text, the footer, or elsewhere
FOCUS_WHERE_JS = r"""
() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "nowhere";
  return e.matches("a.md-skip") && e.getBoundingClientRect().height > 0 ? "skip link"
    : e.closest(".md-content") ? "content" : e.closest(".md-footer") ? "footer"
    : (e.tagName.toLowerCase() + "." + (e.getAttribute("class") || ""));
}
"""


def watch(page, visit: Visit):
    page.on("request", lambda r: visit.requests.append(r.url))
    page.on("requestfailed", lambda r: visit.failed.append(f"{r.url} ({r.failure})"))
    page.on("response", lambda r: r.status >= 400 and visit.failed.append(f"{r.url} (HTTP {r.status})"))
    page.on("console", lambda m: m.type == "error" and visit.console.append(m.text))
    page.on("pageerror", lambda e: visit.console.append(f"uncaught: {e}"))
    page.on("console", lambda m: is_csp_report(m.text) and visit.csp_console.append(f"{m.type}: {m.text}"))


def wait_ready(page, expected: int) -> bool:
    try:
        page.wait_for_function(READY_JS, arg=expected, timeout=READY_TIMEOUT_MS)
        return True
    except Exception:   # what is missing is reported by the checks that read the page
        return False


def drawn_under_the_policy(page) -> dict[str, bool]:
    """Whether the page's diagrams and formulas show as the build drew them (only the kinds it has)."""
    out = {}
    for kind, selector, check in (("diagrams", ".mermaid", DIAGRAMS_DRAWN), ("formulas", ".arithmatex", FORMULAS_DRAWN)):
        if page.locator(selector).count():
            try:
                page.wait_for_function(check, timeout=DRAWN_TIMEOUT_MS)
                out[kind] = True
            except Exception:   # reported by the tests that read the record
                out[kind] = False
    return out


# Each block the browser skips until the reader comes near it (series.css, content-visibility: auto)
# drawn for two frames, then skipped again: it keeps the height it was drawn at, as after a reader read
# the page through.
DRAW_EVERY_BLOCK_JS = """async () => {
  const skipped = [...document.querySelectorAll('.md-content *')].filter((e) => getComputedStyle(e).contentVisibility === 'auto');
  skipped.forEach((e) => { e.style.contentVisibility = 'visible'; });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  skipped.forEach((e) => { e.style.contentVisibility = ''; });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""


def draw_every_block(page):
    """Every block of the page drawn once, as by a reader who reads it through. A block not drawn has
    only its estimated height, and what axe's measuring lays out in it lies over the blocks below, a
    state no reader sees; once drawn, a block keeps its real height."""
    page.evaluate(DRAW_EVERY_BLOCK_JS)


def toggle_scheme(page) -> str:
    before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function("(b) => document.body.getAttribute('data-md-color-scheme') !== b", arg=before)
    page.mouse.move(1, 1)       # off the toggle: its tooltip fades out (a reader does not read it mid-fade)
    page.wait_for_timeout(300)  # let the colour transition and the tooltip's fade settle
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


def shots_dir(host: str) -> Path:
    return SCREENSHOTS if host == "mkdocs" else SCREENSHOTS / host


def shoot(page, name: str, scheme: str, viewport: str, host: str):
    shots_dir(host).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots_dir(host) / f"{name}-{scheme}-{viewport}.png"), full_page=True, animations="disabled")


def read_site(browser, server, built, viewport: dict, name: str, host: str) -> dict[str, Visit]:
    shots = {v: k for k, v in SHOWCASE.items()}
    conf = {"palette": list(PALETTE)}
    visits = {}
    for path in PAGES:
        ctx = browser.new_context(viewport=viewport, color_scheme="light", is_mobile=viewport is PHONE,
                                  has_touch=viewport is PHONE, device_scale_factor=1)
        ctx.add_init_script(INIT_SCRIPT)
        ctx.add_init_script(CSP_INIT)
        page = ctx.new_page()
        v = visits[path] = Visit(path, name)
        watch(page, v)
        try:
            page.goto(server.origin + path, wait_until="load")
            v.ready = wait_ready(page, expected_diagrams(built, path))
            v.drawn = drawn_under_the_policy(page)
            v.light = page.evaluate(READ_JS, conf)
            if viewport is PHONE:
                v.layout = page.evaluate(LAYOUT_JS)
            # Below the screen a long page's blocks are not drawn until the reader comes near them
            # (series.css, content-visibility): the keyboard reaches every box that scrolls sideways
            # already (a11y.js measures the undrawn ones), and then every block is checked as drawn.
            v.axe["light, first screen"] = run_axe(page, rules=["scrollable-region-focusable"])
            draw_every_block(page)
            v.axe["light"] = run_axe(page)
            for key in ("Tab", "Enter", "Tab"):   # the skip link, from the keyboard
                page.keyboard.press(key)
                v.skip.append(page.evaluate(FOCUS_WHERE_JS))
            if path in shots:
                shoot(page, shots[path], "light", name, host)
            scheme = toggle_scheme(page)   # every page in dark mode too
            v.axe["dark"] = run_axe(page)
            if path in shots or viewport is DESKTOP:   # the diagrams' colours and contrast in dark mode
                v.dark = page.evaluate(READ_JS, conf)
                v.dark["scheme"] = scheme
                if path in shots:
                    shoot(page, shots[path], "dark", name, host)
        except Exception as exc:   # reported by test_every_page_can_be_read; the other pages go on
            v.error = f"{type(exc).__name__}: {exc}"
        try:   # every violation of the visit: loading, drawing, dark mode, the keyboard, late ones (fonts, workers)
            v.csp = page.evaluate("window.__csp") + v.csp_console
        except Exception as exc:
            v.error = v.error or f"reading the policy's reports: {type(exc).__name__}: {exc}"
        ctx.close()
    return visits


# --- a sweep in a process of its own ----------------------------------------------------------------------
SWEEP_TIMEOUT_S = 900


def read_site_apart(origin: str, built: Path, name: str, host: str, out: Path) -> subprocess.Popen:
    """Start `read_site` for the viewport `name` of the site served at `origin`, in a process of its
    own with its own Chromium (Playwright's sync API drives one per process); `collect` waits for it.
    The visits come back as JSON in the file `out`, what the process prints in `out` + ".log" (a file,
    not a pipe: nobody reads a pipe while the sweep runs, and a full one would stop the process)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    with open(_log(out), "wb") as log:
        return subprocess.Popen([sys.executable, "-m", "support.sweep", origin, str(built), name, host, str(out)],
                                cwd=ROOT / "tests", env=env, stdout=log, stderr=subprocess.STDOUT)


def _log(out: Path) -> Path:
    return out.with_name(out.name + ".log")


def collect(proc: subprocess.Popen, out: Path) -> dict[str, Visit]:
    """The visits of a sweep started by `read_site_apart` (its output, if it failed)."""
    try:
        proc.wait(timeout=SWEEP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"the sweep did not end in {SWEEP_TIMEOUT_S} s:\n{_log(out).read_text(errors='replace')[-4000:]}")
    if proc.returncode != 0:
        raise RuntimeError(f"the sweep failed (exit status {proc.returncode}):\n{_log(out).read_text(errors='replace')[-4000:]}")
    return {path: Visit(**v) for path, v in json.loads(out.read_text(encoding="utf-8")).items()}


def main(origin: str, built: str, name: str, host: str, out: str) -> None:
    from playwright.sync_api import sync_playwright

    from support.browser_harness import launch
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            visits = read_site(browser, SimpleNamespace(origin=origin), Path(built), VIEWPORTS[name], name, host)
        finally:
            browser.close()
    Path(out).write_text(json.dumps({p: dataclasses.asdict(v) for p, v in visits.items()}), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
