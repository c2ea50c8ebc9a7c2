"""Diagrams and formulas drawn by the build (serieskit/publish/draw/): what a page gets, what the cache draws
again, what a build does without a browser. The browser suite checks how the drawings look."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from support.project import ROOT
from serieskit.publish.draw import Drawer, Unavailable, diagrams

pytestmark = pytest.mark.slow   # every test draws in Chromium or builds a site (over a few seconds a test)
# the tests that draw (the `drawer` fixture) start Debian's Chromium, so they are marked `browser` too, as
# the browser fixture's users are (tests/conftest.py); the builds without a browser below are not

FLOW = "flowchart LR\n  A[\"第一行<br/>第二行\"] --> B{判断}\n  B -->|是| C[结果]\n  classDef y fill:#FEF3C7,stroke:#F59E0B\n  class A y\n"
OTHER = "sequenceDiagram\n  A->>B: 请求\n  B-->>A: 响应\n"


@pytest.fixture
def drawer(tmp_path, monkeypatch):
    monkeypatch.setenv("SERIES_DRAW_CACHE", str(tmp_path / "cache"))
    made = []

    def make(args=None):
        d = Drawer(ROOT, args or {"securityLevel": "strict"}, "build")
        made.append(d)
        return d
    yield make
    for d in made:
        d.close()


def page(*sources: str, formulas: tuple[str, ...] = ()) -> str:
    from markupsafe import escape
    parts = [f'<pre class="mermaid"><code>{escape(s)}</code></pre>' for s in sources]
    parts += [f'<span class="arithmatex">\\({escape(t)}\\)</span>' for t in formulas]
    return "<p>正文</p>" + "".join(parts)


@pytest.mark.browser
def test_a_page_gets_finished_markup(drawer):
    d = drawer()
    out = d.substitute(page(FLOW, formulas=("x^2 + \\frac{a}{b}",)))
    assert not out.errors and not out.removed
    html = out.html
    assert '<div class="mermaid"><svg' in html and "<pre class=\"mermaid\">" not in html
    assert "第一行" in html and "第二行" in html            # the <br/> label keeps both lines
    assert "<script" not in html and "@font-face" not in html  # no script, no embedded web fonts
    assert 'role="img" aria-label="流程图"' in html           # an accessible name
    assert "fill:rgb(254, 243, 199)!important" in html       # the diagram's own classDef (mermaid writes rgb)
    assert "var(--md-mermaid-node-bg-color)" in html         # Material's theme: the page's colours
    assert 'class="katex"' in html and "<math" in html       # KaTeX's HTML and MathML


@pytest.mark.browser
def test_a_diagram_is_an_image_with_a_name_as_the_browser_parses_it(drawer):
    """The accessible name as a browser reads the drawn <svg>: the accTitle when the author wrote one,
    else an image named by the diagram's kind. A repeated attribute counts once (the first wins), so
    the markup must carry `role` once."""
    from selectolax.lexbor import LexborHTMLParser
    named = "flowchart LR\n  accTitle: 两步\n  accDescr: 先 A 后 B。\n  A --> B\n"
    for source, want in ((OTHER, ("img", "时序图")), (FLOW, ("img", "流程图"))):
        html = drawer().substitute(page(source)).html
        head = html[html.index("<svg"):html.index(">", html.index("<svg")) + 1]
        roles = re.findall(r'\srole="', head)
        svg = LexborHTMLParser(html).css_first("div.mermaid > svg")
        assert (svg.attributes.get("role"), svg.attributes.get("aria-label")) == want and len(roles) == 1, head
    svg = LexborHTMLParser(drawer().substitute(page(named)).html).css_first("div.mermaid > svg")
    title = svg.css_first("title")
    assert title is not None and svg.attributes.get("aria-labelledby") == title.attributes.get("id")
    assert title.text() == "两步"


@pytest.mark.browser
def test_the_cache_draws_only_what_changed(drawer):
    d = drawer()
    d.substitute(page(FLOW, OTHER, formulas=("a+b",)))
    assert d.stats["diagrams drawn"] == 2 and d.stats["formulas drawn"] == 1
    d.stats.clear()
    d.substitute(page(FLOW, OTHER, formulas=("a+b",)))
    assert d.stats == {"diagrams cached": 2, "formulas cached": 1}
    d.stats.clear()
    d.substitute(page(FLOW.replace("结果", "新结果"), OTHER, formulas=("a+b",)))
    assert d.stats == {"diagrams drawn": 1, "diagrams cached": 1, "formulas cached": 1}
    # other settings (or a palette change, which changes the classes a diagram gets): all drawn again
    d2 = drawer({"securityLevel": "strict", "flowchart": {"curve": "linear"}})
    d2.substitute(page(FLOW, OTHER))
    assert d2.stats == {"diagrams drawn": 2}


@pytest.mark.browser
def test_another_mermaid_version_draws_everything_again(drawer, monkeypatch):
    drawer().substitute(page(FLOW))
    monkeypatch.setattr(diagrams, "version", lambda root: "99.0.0")
    d = drawer()
    d.substitute(page(FLOW))
    assert d.stats == {"diagrams drawn": 1}


@pytest.mark.browser
def test_a_damaged_cache_entry_is_drawn_again(drawer, tmp_path):
    drawer().substitute(page(FLOW))
    for f in (tmp_path / "cache").rglob("*.json"):
        f.write_text("{not json", encoding="utf-8")
    d = drawer()
    assert '<div class="mermaid"><svg' in d.substitute(page(FLOW)).html
    assert d.stats == {"diagrams drawn": 1}


@pytest.mark.browser
def test_what_does_not_parse_is_an_error_with_the_renderers_message(drawer):
    d = drawer()
    out = d.substitute(page("flowchart LR\n  A --> B[oops\n", formulas=("\\frac{a}{",)))
    kinds = sorted((e.kind, e.message.split(":")[0]) for e in out.errors)
    assert kinds == [("diagram", "Parse error on line 4"), ("formula", "KaTeX parse error")], out.errors
    assert '<pre class="series-draw-error"><code>flowchart LR' in out.html
    assert '<code class="series-draw-error">\\frac{a}{</code>' in out.html


def attributes(html: str) -> list[tuple[str, str, str]]:
    """Every (tag, attribute, value) of the markup, as a browser parses it."""
    from selectolax.lexbor import LexborHTMLParser
    body = LexborHTMLParser("<body>" + html + "</body>").body
    return [(n.tag, k, v or "") for n in body.traverse(include_text=False) for k, v in n.attributes.items()]


def assert_inert(html: str, label: str, images: bool = False) -> None:
    """Nothing that runs, loads from elsewhere or restyles the page (`images`: relative ones may stay,
    as in any page)."""
    from selectolax.lexbor import LexborHTMLParser
    body = LexborHTMLParser("<body>" + html + "</body>").body
    found = {n.tag for n in body.traverse(include_text=False)}
    banned = {"script", "iframe", "object", "embed", "set", "animate", "meta", "link", "base", "form"}
    assert not found & (banned if images else banned | {"img"}), (label, found)
    for tag, attr, value in attributes(html):
        assert not attr.startswith("on"), (label, tag, attr)
        assert not attr.startswith("data-pagefind"), (label, tag, attr)
        assert "javascript:" not in value.lower().replace(" ", ""), (label, tag, attr, value)
        if attr in ("href", "xlink:href", "src"):
            assert not value.lower().startswith(("http:", "https:", "data:")), (label, tag, attr, value)
        if attr == "style":
            assert "url(" not in value.lower(), (label, tag, value)


@pytest.mark.browser
@pytest.mark.parametrize("label, tex", [
    ("href", "\\href{javascript:alert(1)}{x}"),
    ("url", "\\url{javascript:alert(1)}"),
    ("htmlData", "\\htmlData{onclick=alert(1)}{x}"),
    ("includegraphics", "\\includegraphics{https://example.org/x.png}"),
    ("htmlStyle", "\\htmlStyle{background:url(https://example.org/x)}{x}"),
    ("htmlClass", "\\htmlClass{md-overlay}{x}"),
])
def test_formulas_cannot_smuggle_markup(drawer, label, tex):
    assert_inert(drawer().substitute(page(formulas=(tex,))).html, label)


@pytest.mark.browser
@pytest.mark.parametrize("label, source", [
    ("script in a label", 'flowchart LR\n  A["<script>alert(1)</script>x"] --> B'),
    ("img onerror in a label", 'flowchart LR\n  A["<img src=x onerror=alert(1)>"] --> B'),
    ("javascript click", 'flowchart LR\n  A --> B\n  click B href "javascript:alert(1)"'),
    ("foreignObject iframe", 'flowchart LR\n  A["<iframe srcdoc=\'<script>alert(1)</script>\'></iframe>"] --> B'),
    ("svg set in a label", 'flowchart LR\n  A["<svg><set attributeName=href to=javascript:alert(1) /></svg>"] --> B'),
    ("style with url", "flowchart LR\n  A --> B\n  style A fill:url(https://example.org/x),stroke:#333"),
    ("classDef with url", "flowchart LR\n  A --> B\n  classDef bad fill:url(https://example.org/x)\n  class A bad"),
])
def test_diagrams_cannot_smuggle_markup(drawer, label, source):
    out = drawer().substitute(page(source))
    assert "<svg" in out.html or out.errors, label
    assert_inert(out.html, label, images=True)
    for css in re.findall(r"<style>(.*?)</style>", out.html, re.S):   # nor in the diagram's stylesheet
        assert "url(" not in css.replace("url(#", "") and "@import" not in css, label


def _build(tmp_path, env):
    proj = tmp_path / "proj"
    for name in ("mkdocs.yml", "conventions.yml", "overrides", "docs", "series", "hooks"):
        src = ROOT / name
        (subprocess.run(["cp", "-r", str(src), str(proj / name)], check=True) if proj.exists() else
         (proj.mkdir(), subprocess.run(["cp", "-r", str(src), str(proj / name)], check=True)))
    (proj / "node_modules").symlink_to(ROOT / "node_modules")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                          cwd=proj, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env})


def test_without_a_browser_the_build_stops_naming_the_install(tmp_path):
    r = _build(tmp_path, {"SERIES_CHROMIUM": "/nonexistent/chromium"})
    assert r.returncode != 0
    assert "apt-get install chromium" in r.stderr and "SERIES_DRAW=browser" in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr


def test_the_browser_fallback_is_asked_for_explicitly(tmp_path):
    r = _build(tmp_path, {"SERIES_CHROMIUM": "/nonexistent/chromium", "SERIES_DRAW": "browser"})
    assert r.returncode == 0, r.stderr[-3000:]
    post = (tmp_path / "site/train-infer-accel/metrics-panorama/index.html").read_text(encoding="utf-8")
    assert '<pre class="mermaid">' in post and "assets/javascripts/mermaid-loader.js" in post
    assert "assets/javascripts/math.js" in post and '<span class="katex' not in post
    assert (tmp_path / "site/assets/vendor/mermaid/mermaid.esm.min.mjs").is_file()
    assert (tmp_path / "site/assets/vendor/katex/katex.min.js").is_file()


def test_unavailable_names_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(diagrams, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(Unavailable, match="apt-get install chromium"):
        Drawer(ROOT, None, "build")
    assert Drawer(ROOT, None, "auto").mode == "browser"
