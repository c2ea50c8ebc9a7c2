"""What a published page carries of its diagrams and formulas, read as a browser parses it (selectolax's
Lexbor, a WHATWG parser): the build draws them (serieskit/publish/draw/), so a page holds inline SVG
(`<div class="mermaid"><svg>`) and KaTeX's HTML and MathML (`.arithmatex .katex`) and loads no
drawing script. Shared by the build, feed and browser tests."""
from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser

# what a page must never request or load when the build has drawn its diagrams and formulas: mermaid
# (the vendored module and its chunks, the single-file build), the site's loader, KaTeX's script, its
# auto-render and the site's math.js
DRAWING_SCRIPTS = ("vendor/mermaid/", "mermaid.esm", "mermaid.min.js", "mermaid-loader.js", "katex.min.js",
                   "auto-render", "javascripts/math.js")


@dataclass
class Diagram:
    id: str
    attrs: dict            # the <svg>'s attributes as the browser keeps them (the first of a repeated one)
    labels: list[str]      # each node's / edge's label text, lines joined by "\n" (a <br> is a line break)
    css: str               # the drawing's own stylesheet, as the browser reads it (entities decoded)
    html: str              # the <svg> element's markup as published
    node_classes: dict     # node id (as the author wrote it) -> its classes
    node_fill: dict        # node id -> the fill its shape's style attribute gives ("" if none)
    links: list[tuple[str, str]]   # (href, text) of every <a> inside the drawing
    name: str              # its accessible name (aria-labelledby's element, else aria-label)
    description: str       # what aria-describedby names ("" if none)


def _text_with_breaks(node) -> str:
    out = []
    for n in node.traverse(include_text=True):
        if n.tag == "-text":
            out.append(n.text_content or "")
        elif n.tag == "br":
            out.append("\n")
    return "".join(out).strip()


def diagrams(page: str) -> list[Diagram]:
    tree = LexborHTMLParser(page)
    out = []
    for svg in tree.css("div.mermaid > svg"):
        sid = svg.attributes.get("id") or ""
        labels = [_text_with_breaks(n) for n in svg.css(".nodeLabel, .edgeLabel .label, span.edgeLabel")]
        style = svg.css_first("style")
        css = style.text() if style is not None else ""
        classes, fills = {}, {}
        for g in svg.css("g.node"):
            m = re.fullmatch(rf"{re.escape(sid)}-(?:flowchart-)?(.+?)(?:-\d+)?", g.attributes.get("id") or "")
            name = m.group(1) if m else (g.attributes.get("id") or "")
            classes[name] = (g.attributes.get("class") or "").split()
            shape = g.css_first("rect, polygon, path, circle")
            st = (shape.attributes.get("style") or "") if shape is not None else ""
            fm = re.search(r"fill:\s*([^;!]+)", st)
            fills[name] = fm.group(1).strip() if fm else ""
        links = [(a.attributes.get("href") or a.attributes.get("xlink:href") or "", a.text(strip=True))
                 for a in svg.css("a")]

        def named(attr: str, svg=svg) -> str:
            ref = svg.attributes.get(attr)
            el = next((n for n in svg.css("title, desc") if ref and n.attributes.get("id") == ref), None)
            return el.text(strip=True) if el is not None else ""
        name = named("aria-labelledby") or svg.attributes.get("aria-label") or ""
        out.append(Diagram(sid, dict(svg.attributes), [x for x in labels if x], css, svg.html or "",
                           classes, fills, links, name, named("aria-describedby")))
    return out


@dataclass
class Formula:
    display: bool
    tex: str               # KaTeX's annotation: the TeX the author wrote
    mathml: bool           # carries MathML (what a screen reader and a feed reader get)


def formulas(page: str) -> list[Formula]:
    tree = LexborHTMLParser(page)
    out = []
    for node in tree.css(".arithmatex"):
        ann = node.css_first('annotation[encoding="application/x-tex"]')
        out.append(Formula(node.tag == "div", (ann.text() if ann is not None else "").strip(),
                           node.css_first("math") is not None))
    return out


def undrawn(page: str) -> list[str]:
    """What a page still leaves to a browser script: mermaid fences, formulas without KaTeX's markup."""
    tree = LexborHTMLParser(page)
    left = [f"<pre class=mermaid>: {n.text()[:40]!r}" for n in tree.css("pre.mermaid")]
    left += [f".arithmatex without KaTeX: {n.text()[:40]!r}" for n in tree.css(".arithmatex")
             if n.css_first(".katex") is None]
    return left


def drawing_scripts(page: str) -> list[str]:
    """Every script, module, preload or stylesheet of a page that belongs to a drawing library's runtime."""
    tree = LexborHTMLParser(page)
    found = []
    for n in tree.css("script[src], link[href]"):
        url = n.attributes.get("src") or n.attributes.get("href") or ""
        if any(s in url for s in DRAWING_SCRIPTS):
            found.append(url)
    for n in tree.css("script:not([src])"):
        text = n.text() or ""
        if any(s in text for s in DRAWING_SCRIPTS):
            found.append(f"inline script naming {next(s for s in DRAWING_SCRIPTS if s in text)}")
    return found


def css_rules(css: str) -> dict[str, str]:
    """A drawing's stylesheet as selector -> declarations (the id scope left out of the selector)."""
    out = {}
    for rule in css.split("}"):
        if "{" in rule:
            sel, _, body = rule.partition("{")
            for s in sel.split(","):
                out[re.sub(r"^#[\w-]+\s*", "", s.strip())] = body
    return out
