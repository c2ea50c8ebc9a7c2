"""The Content-Security-Policy as written (the browser side is tests/test_csp_browser.py): only the
site's own origin for scripts, styles, fonts, images, connections and workers; no eval; inline scripts
only by hash, never 'unsafe-inline' in script-src; the meta tag of every page and `_headers` carry the
same policy. The hashes are those of the theme's own inline scripts and the site's one, known before any page
is built (serieskit/publish/csp.py THEME_SCRIPTS, SITE_SCRIPTS): an inline script anything else puts into a page
is not allowed, and the build reports it (SEC001), so a strict build fails.
"""
from __future__ import annotations

import base64
import hashlib
import html
import re

import html5lib
import pytest

from support.sitebuild import build, make_project

from serieskit.publish import csp  # noqa: E402

EXPECTED = {
    "default-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],     # mermaid writes inline styles
    "img-src": ["'self'", "data:"],                  # Material's stylesheet carries its icons as data: URLs
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}
JS_TYPES = ("", "text/javascript", "module", "application/javascript")


def parse(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in filter(None, (p.strip() for p in policy.split(";"))):
        name, *values = part.split()
        assert name not in out, f"{name} twice"
        out[name] = values
    return out


def header_policy(site) -> str:
    return re.search(r"^  Content-Security-Policy: (.*)$", (site / "_headers").read_text(encoding="utf-8"), re.M).group(1)


def inline_scripts(page: str) -> list[str]:
    tree = html5lib.parse(page, treebuilder="etree", namespaceHTMLElements=False)
    return [s.text or "" for s in tree.iter("script")
            if not s.get("src") and (s.get("type") or "").lower() in JS_TYPES]


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("csp-policy")
    proj = make_project(tmp)
    # a page of docs/ with an inline script of its own: the output gate takes it out (SEC003)...
    (proj / "docs" / "extra.md").write_text("# 额外\n\n<script>window.__page = 1;</script>\n", encoding="utf-8")
    # ...and a theme partial with one (not a post's: the gate does not see templates): it must NOT reach
    # any policy, and the page scan names it
    (proj / "overrides" / "partials" / "copyright.html").write_text(
        '<div class="md-copyright"><script>window.__extra = 1;</script></div>\n', encoding="utf-8")
    out = tmp / "site"
    r = build(proj, out, strict=False)
    assert r.returncode == 0, r.stderr[-3000:]
    (tmp / "build.log").write_text(r.stderr, encoding="utf-8")
    return out


def test_the_allowed_scripts_are_the_themes_own_pinned_list():
    """The list is short and written down; a new entry is a decision, not something a page brings."""
    assert csp.THEME_SCRIPTS == ("partials/javascripts/base.html", "partials/javascripts/palette.html",
                                 "partials/javascripts/content.html")
    assert csp.SITE_SCRIPTS == ("partials/series-stylesheets.html",)


def test_a_configuration_without_one_localstorage_scope_is_refused():
    """Without `extra.scope` Material's first inline script names each page's own base URL, so the one hash the
    policy holds for it would block it on every page but the home page: both hosts stop instead."""
    from types import SimpleNamespace
    config = SimpleNamespace(theme={"features": []}, extra={"mermaid_args": {}})
    with pytest.raises(RuntimeError, match="extra: scope:"):
        csp.theme_scripts(None, config)


@pytest.mark.slow
def test_the_policy_allows_only_the_sites_own_origin_and_no_eval(site):
    policy = parse(header_policy(site))
    script = policy.pop("script-src")
    # the site's files, WebAssembly compiled from them (the search engine; no JavaScript eval), and
    # the theme's inline scripts by hash: nothing else
    assert script[:2] == ["'self'", "'wasm-unsafe-eval'"], script
    assert script[2:] and all(re.fullmatch(r"'sha256-[A-Za-z0-9+/]+=*'", s) for s in script[2:])
    assert policy.pop("frame-ancestors") == ["'none'"]
    assert policy == EXPECTED
    text = header_policy(site)
    for banned in ("'unsafe-eval'", "'strict-dynamic'", "*", "http:", "https:", "blob:"):
        assert banned not in text, banned      # ("'wasm-unsafe-eval'" does not contain "'unsafe-eval'")
    assert "'unsafe-inline'" not in script


@pytest.mark.slow
def test_meta_and_headers_carry_the_same_policy_on_every_page(site):
    header = parse(header_policy(site))
    header.pop("frame-ancestors")          # not allowed in a meta tag; the header adds it
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 8
    for page in pages:
        text = page.read_text(encoding="utf-8")
        metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
        assert len(metas) == 1, page
        assert parse(html.unescape(metas[0])) == header, page
        head = text.split("</head>", 1)[0]
        first = min(i for i in (head.find("<script"), head.find("<link"), head.find("<style")) if i >= 0)
        assert head.find('http-equiv="Content-Security-Policy"') < first, f"{page}: the policy comes too late"


@pytest.mark.slow
def test_the_policy_allows_the_themes_scripts_and_nothing_a_page_brings(site):
    allowed = set(parse(header_policy(site))["script-src"]) - {"'self'", "'wasm-unsafe-eval'"}
    assert len(allowed) == len(csp.THEME_SCRIPTS) + len(csp.SITE_SCRIPTS)
    seen = set()
    for page in site.rglob("*.html"):
        for body in inline_scripts(page.read_text(encoding="utf-8")):
            seen.add(sha(body))
    assert sha("window.__extra = 1;") in seen           # the page carries it...
    assert sha("window.__extra = 1;") not in allowed    # ...and the policy does not allow it
    assert seen - allowed == {sha("window.__extra = 1;")}
    log = (site.parent / "build.log").read_text(encoding="utf-8")
    assert re.search(r"docs/about\.md:1:1: SEC001 the built page carries an inline script", log), log[-2000:]
    assert re.search(r"docs/extra\.md:3:1: SEC003 the rendered page carries <script>", log), log[-2000:]
    assert "window.__page" not in (site / "extra" / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_page_with_a_script_of_its_own_fails_a_strict_build(tmp_path):
    proj = make_project(tmp_path)
    (proj / "docs" / "extra.md").write_text("# 额外\n\n<script>window.__extra = 1;</script>\n", encoding="utf-8")
    r = build(proj, tmp_path / "site", strict=True)
    assert r.returncode == 1
    assert "docs/extra.md:3:1: SEC003" in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]
