"""Mermaid diagrams drawn by the build: the site's pinned mermaid in one headless Chromium per build
(serieskit/publish/draw/mermaid_worker.py), its SVG sanitized and made to sit in the page as Material's own
renderer would draw it.

The look: mermaid's classic look, default theme and dagre layout (mermaid 11's defaults: the palette
stays the site's), with Material's theme stylesheet (material-mermaid.css, copied from Material's
bundle and pinned by tests/test_upstream.py) and the site's cluster rules; colours are CSS custom
properties that palette.css sets on `.md-typeset .mermaid`, so a drawing follows the page's theme with
no script. Labels are HTML inside `foreignObject` (mermaid's `htmlLabels`, as Material draws them: the
browser breaks lines where the language allows, never inside a word), styled only by the drawing's own
stylesheet (its rules are scoped by the drawing's id, above the page's) and passed by the same
allow-list as the page. Fonts: the site's own stack, measured in the build's browser, no embedded web
fonts.
"""
from __future__ import annotations

import html as htmllib
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from serieskit import sanitize
from serieskit.markup import Markup, html
from .worker import Worker, npm_version

HERE = Path(__file__).resolve().parent
MERMAID_JS = "node_modules/mermaid/dist/mermaid.min.js"
CHROMIUM = os.environ.get("SERIES_CHROMIUM", "/usr/bin/chromium")
FONT_FALLBACK = "sans-serif"
# SVG text (not HTML labels) takes its colour from `fill`; the clusters use the site's variables.
SITE_CSS = ("p{text-align:inherit;text-justify:auto}"   # the page's prose is justified; labels are not
            ".label text,.nodeLabel,text.actor>tspan,.messageText,.noteText>tspan,.loopText>tspan,"
            ".edgeLabel text,.cluster-label text{fill:var(--md-mermaid-label-fg-color)}"
            ".cluster rect{fill:var(--series-cluster-fill);stroke:var(--series-cluster-stroke)}"
            ".cluster text,.cluster-label text{fill:var(--series-cluster-fg)}")
DEFAULTS = {"look": "classic", "theme": "default", "layout": "dagre"}
# deterministic output: ids from the render id, and a fixed seed for the shapes mermaid draws with
# rough.js even in the classic look (stadium, circle, cylinder, ...), whose paths are random otherwise
FORCED = {"startOnLoad": False, "securityLevel": "strict", "deterministicIds": True, "handDrawnSeed": 1}
MIN_SCALE = 0.75    # below three quarters of its natural width a diagram scrolls in its box instead
STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.S)
MAX_WIDTH = re.compile(r"max-width:\s*([\d.]+)px")
FONT_VAR = re.compile(r"--md-text-font:\s*([^;]+);")
ROLE = re.compile(r'\srole="[^"]*"')


@dataclass
class Drawn:
    """A drawing ready for the page (`html`), or why not (`error`); what the sanitizer took out."""
    html: str | None = None
    error: str | None = None
    removed: list = field(default_factory=list)


def site_font(root: Path) -> str:
    """The site's text font stack (series.css `--md-text-font`), so labels are measured as shown."""
    try:
        m = FONT_VAR.search((root / "docs/assets/stylesheets/series.css").read_text(encoding="utf-8"))
    except OSError:
        m = None
    return " ".join(m.group(1).split()) if m else FONT_FALLBACK


def settings(args: dict | None, font: str) -> dict:
    theme_css = (HERE / "material-mermaid.css").read_text(encoding="utf-8").strip() + SITE_CSS
    cfg = {**DEFAULTS, **(args or {}), **FORCED, "fontFamily": font, "themeCSS": theme_css}
    html_labels = cfg.get("htmlLabels", (cfg.get("flowchart") or {}).get("htmlLabels", True))
    cfg["htmlLabels"] = html_labels
    cfg["flowchart"] = {**(cfg.get("flowchart") or {}), "htmlLabels": html_labels}
    # Material's sizes for sequence diagrams
    cfg["sequence"] = {"actorFontSize": "16px", "messageFontSize": "16px", "noteFontSize": "16px",
                       **(cfg.get("sequence") or {})}
    return cfg


def version(root: Path) -> str | None:
    return npm_version(root, "mermaid")


def missing(root: Path) -> str | None:
    """Why diagrams cannot be drawn here (None: they can)."""
    if not (root / MERMAID_JS).is_file():
        return f"{MERMAID_JS} is missing: run `npm ci`"
    if not Path(CHROMIUM).is_file():
        return f"no browser at {CHROMIUM}: install Debian's chromium (`apt-get install chromium fonts-noto-cjk`)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is missing: `pip install -e .`"
    return None


def worker(root: Path) -> Worker:
    return Worker("mermaid (Chromium)", [sys.executable, "-m", "serieskit.publish.draw.mermaid_worker",
                                         str(root / MERMAID_JS), CHROMIUM],
                  cwd=str(HERE.parents[2]), ready_line=True)   # the folder that holds serieskit/


def finish(svg: str, name: str) -> Drawn:
    """mermaid's SVG as the page gets it: its stylesheet rebuilt from the declarations the sanitizer
    allows, the rest through the sanitizer, a minimum width, an accessible name."""
    m = STYLE.search(svg)
    css = sanitize.clean_stylesheet(htmllib.unescape(m.group(1))) if m else ""
    rest = svg[:m.start()] + svg[m.end():] if m else svg
    cleaned = sanitize.clean(rest)
    out = cleaned.html
    w = MAX_WIDTH.search(out[:out.find(">") + 1])
    if w:
        minw = float(w.group(1)) * MIN_SCALE
        out = out.replace(w.group(0), f"{w.group(0)};min-width:{minw:.1f}px", 1)
    head_end = out.find(">") + 1
    head = out[:head_end]
    if "aria-labelledby" not in head:    # no accTitle: an image named by its kind (mermaid's role goes)
        head = ROLE.sub("", head)
        out = head + out[head_end:]
        head_end = len(head)
    label = Markup("") if "aria-labelledby" in head else html(' role="img" aria-label="{}"', name)
    style = html("<style>{}</style>", css) if css else ""   # escaped: inside <svg> the parser decodes it
    out = out[:head_end - 1] + str(label) + ">" + str(style) + out[head_end:]
    return Drawn(html=out, removed=cleaned.removed)
