"""The site's Content-Security-Policy: what may run is known before any page is built.

Scripts: the site's own files (`'self'`) and, by their sha256, exactly the inline scripts of the
theme's own templates (THEME_SCRIPTS below, rendered from Material's partials with this site's
configuration) and the site's own (SITE_SCRIPTS). Nothing is learnt from the pages: an inline script a
page carries that is not one of those (from a post, a diagram, an override not listed in SITE_SCRIPTS,
a new theme version) is not allowed by the policy, and the build reports it as an SEC001 error naming
the page (`unknown_scripts`), so a strict build fails.

`mkdocs serve` adds its live-reload script to each page it serves; `serve_policy` allows exactly the
scripts the server added to that response, nothing the page already had.
"""
from __future__ import annotations

import base64
import hashlib
import re
from collections import Counter

from serieskit.markup import escape

# Material's partials that write an inline script into every page of this site (base.html includes
# them; header.html the palette one). announce.html, outdated.html and consent.html are included only
# for features this site does not use (an announcement bar, versioning, cookie consent): enabling one
# makes every page carry a script the policy does not know, and the build says so.
THEME_SCRIPTS = (
    "partials/javascripts/base.html",      # __md_scope, __md_get / __md_set (localStorage helpers)
    "partials/javascripts/palette.html",   # restores the reader's light / dark choice before paint
    "partials/javascripts/content.html",   # opens the content tab named by the URL's #hash
)

# The site's own inline script (overrides/), allowed the same way: the stylesheets' addresses made
# absolute before the page is parsed (the partial says why).
SITE_SCRIPTS = (
    "partials/series-stylesheets.html",
)

INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script\s*>", re.S | re.I)
SCRIPT_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.I)
HAS_SRC = re.compile(r"""(?:^|\s)src\s*=""", re.I)
RUNS = ("", "text/javascript", "module", "application/javascript")
PLACEHOLDER = "__SERIES_CSP__"    # overrides/main.html's meta tag, filled by fill()


def sha256(body: str) -> str:
    return base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()


def inline_scripts(html_text: str) -> list[str]:
    """The bodies of the inline scripts of a page that a browser runs (data blocks such as
    `type="application/json"` and `<script src>` are not inline code)."""
    out = []
    for m in INLINE_SCRIPT.finditer(html_text):
        attrs = m.group("attrs")
        if HAS_SRC.search(attrs):
            continue
        t = SCRIPT_TYPE.search(attrs)
        if (t.group(1).lower() if t else "") not in RUNS:
            continue
        out.append(m.group("body"))
    return out


def theme_scripts(env, config) -> dict[str, str]:
    """THEME_SCRIPTS and SITE_SCRIPTS rendered with this site's configuration (`env` loads the site's
    overrides before the theme, as the pages do): partial -> the script's hash. RuntimeError (the host
    stops the build with its message) when a partial no longer renders one script, or when the
    configuration sets no `extra.scope` (one localStorage scope for the whole site)."""
    if not (config.extra or {}).get("scope"):
        # Material's localStorage scope is `extra.scope`, else the page's base URL: without it the theme's
        # first inline script differs from page to page, and a policy that hashes it once blocks it
        raise RuntimeError("mkdocs.yml sets no `extra: scope:` (the site's is `/`): Material's inline script "
                           "would then differ on every page and the Content-Security-Policy would block it")
    context = {"config": config, "features": config.theme.get("features", []), "base_url": "."}
    out = {}
    for name in THEME_SCRIPTS + SITE_SCRIPTS:
        bodies = inline_scripts(env.get_template(name).render(**context))
        if len(bodies) != 1:
            whose, listed = ("the site's", "SITE_SCRIPTS") if name in SITE_SCRIPTS else ("the theme's", "THEME_SCRIPTS")
            raise RuntimeError(f"{whose} {name} rendered {len(bodies)} inline scripts, not one: it changed; "
                               f"update {listed} in serieskit/publish/csp.py")
        out[name] = sha256(bodies[0])
    return out


def policy(hashes) -> str:
    """Everything from the site's own origin only; inline scripts only by the given hashes (no
    'unsafe-inline', no 'unsafe-eval'); WebAssembly compiled from the site's own files
    (`'wasm-unsafe-eval'`: the search engine, Pagefind, is WebAssembly; it allows no JavaScript
    eval); inline styles allowed (mermaid writes them); data: images for the icons Material's own
    stylesheet carries as data: URLs."""
    script = " ".join(["'self'", "'wasm-unsafe-eval'", *sorted(f"'sha256-{h}'" for h in hashes)])
    return ("default-src 'self'; "
            f"script-src {script}; "
            "style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; "
            "object-src 'none'; base-uri 'self'; form-action 'self'")


def headers(site_policy: str) -> str:
    """`_headers` (Netlify, Cloudflare Pages): the same policy as the pages' meta tag, plus what only
    a header can say."""
    return ("/*\n"
            f"  Content-Security-Policy: {site_policy}; frame-ancestors 'none'\n"
            "  X-Content-Type-Options: nosniff\n"
            "  Referrer-Policy: strict-origin-when-cross-origin\n")


def unknown_scripts(html_text: str, allowed: set[str]) -> list[str]:
    """The inline scripts of a page that the policy does not allow (their first characters)."""
    return [body.strip()[:60] for body in inline_scripts(html_text) if sha256(body) not in allowed]


def served_additions(before: str, after: str) -> list[str]:
    """The inline scripts present in `after` but not in `before` (with multiplicity)."""
    added = Counter(inline_scripts(after))
    added.subtract(Counter(inline_scripts(before)))
    return [body for body, n in added.items() for _ in range(n) if n > 0]


def fill(html_text: str, allowed: set[str], site_policy: str) -> tuple[str, list[str]]:
    """The page with its CSP meta tag filled, and the starts of its inline scripts the policy does not
    allow (SEC001 errors: the browser would refuse them)."""
    if PLACEHOLDER not in html_text:
        return html_text, []
    unknown = unknown_scripts(html_text, allowed)
    return html_text.replace(PLACEHOLDER, str(escape(site_policy)), 1), unknown
