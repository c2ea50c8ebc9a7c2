"""The attack on the rendered output, end to end: every payload of ATTACKS (tests/support/attacks.py) is a
post of its own, built by both hosts (not --strict: a strict build refuses it), served WITHOUT `_headers`
(only the page's own meta policy stands, as on a host that ignores the file), and opened in Chromium.
Nothing runs, nothing is fetched from elsewhere, the page is not covered or redirected; the feeds,
which no policy protects, carry nothing active as html5lib (the browsers' parser) reads them; and both
builds report each payload as SEC003 at its source line."""
from __future__ import annotations

import functools
import html as htmllib
import http.server
import re
import threading
import xml.etree.ElementTree as ET

import pytest

from support.attacks import ATTACKS
from support.htmloracle import active
from support.sitebuild import HOSTS, build, make_project

def payload(body: str) -> str:
    """The attack as written, its scripts made to exist: whatever would run calls alert(), a dialog."""
    return (body.replace('src="../assets/helper.js"', 'src="data:text/javascript,alert(1)"')
            .replace("src=x.js", '"data:text/javascript,alert(1)"'.join(("src=", ""))))


class PlainHost:
    """A static host that sends no `_headers`: the page's meta policy is all there is."""

    def __init__(self, out):
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
        handler.log_message = lambda *a, **k: None
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module", params=HOSTS)
def attacked(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"attacks-{request.param}")
    proj = make_project(tmp)
    notes = proj / "series" / "notes"
    for i, (name, body) in enumerate(ATTACKS):
        (notes / f"attack-{i}.md").write_text(
            f"---\ntitle: \"攻击 {i}\"\nslug: attack-{i}\ndate: 2026-03-01\n---\n\n{name}\n\n{payload(body)}\n\n正文结束。\n",
            encoding="utf-8")
    out = tmp / "site"
    host = PlainHost(out)
    r = build(proj, out, strict=False, host=request.param, SITE_URL=host.base)
    assert r.returncode == 0, r.stderr[-3000:]
    host.start()
    yield request.param, proj, out, host.base, r.stdout + r.stderr
    host.stop()


@pytest.mark.slow
def test_every_payload_is_reported_at_its_line(attacked):
    _, proj, _, _, log = attacked
    for i, (name, _) in enumerate(ATTACKS):
        assert re.search(rf"series/notes/attack-{i}\.md:\d+:\d+: SEC003 ", log), (name, log[-3000:])


def test_nothing_runs_loads_or_covers_the_page(attacked, browser):
    _, _, out, base, _ = attacked
    context = browser.new_context()
    page = context.new_page()
    foreign, dialogs = [], []
    page.on("request", lambda r: None if r.url.startswith((base, "data:image", "blob:")) else foreign.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        for i, (name, _) in enumerate(ATTACKS):
            page.goto(f"{base}notes/attack-{i}/", wait_until="load")
            page.wait_for_timeout(150)
            assert page.url == f"{base}notes/attack-{i}/", (name, page.url)          # no refresh, no redirect
            assert not dialogs, (name, dialogs)
            assert page.evaluate("""() => [...document.querySelectorAll('article *')].every(e =>
                !['fixed', 'sticky'].includes(getComputedStyle(e).position))"""), name   # nothing of the post covers the page
            assert "正文结束" in page.inner_text("article"), name     # the post shows, not hidden by a <style>
        assert not foreign and not dialogs, (foreign, dialogs)
    finally:
        context.close()


@pytest.mark.slow
def test_the_feeds_carry_nothing_active(attacked):
    _, _, out, _, _ = attacked
    ns = {"a": "http://www.w3.org/2005/Atom"}
    for feed in out.glob("feed*.xml"):
        root = ET.fromstring(feed.read_bytes())
        for entry in root.findall("a:entry", ns):
            content = entry.find("a:content", ns)
            html = content.text or ""
            assert not active(html), (feed.name, entry.find("a:title", ns).text, active(html))
            assert not re.search(r"<(?:style|meta|link|base|form|set|animate)\b|data-pagefind", html, re.I), feed.name
            assert "javascript:" not in htmllib.unescape(html).lower().replace(" ", ""), feed.name
