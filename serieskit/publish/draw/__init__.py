"""Diagrams and formulas drawn by the build, so that a reader's phone only shows them.

`Drawer.substitute(html)` replaces every mermaid fence (`<pre class="mermaid">`, as pymdownx'
`fence_code_format` writes it) and every formula (`.arithmatex`, as pymdownx.arithmatex writes it in
generic mode) of a converted page by finished, sanitized markup: inline SVG from the pinned mermaid in
headless Chromium (diagrams.py), HTML and MathML from the pinned KaTeX in Node (formulas.py). Each
drawing is cached by content under `.cache/draw/` (store.py); the renderers start on the first miss,
so a warm build starts neither. What does not parse is a `DrawError` for the host to report.

Modes (`SERIES_DRAW`): `build` (the default for `mkdocs build` and the Zensical build: no renderer is
an error naming what to install), `browser` (asked for explicitly: the page keeps the fences and
formulas and the browser draws them, as before), `auto` (`mkdocs serve`: draw when possible, else
the browser, said once in the log).
"""
from __future__ import annotations

import hashlib
import html as htmllib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from serieskit.markup import Markup, html
from serieskit.sanitize import Removal
from . import diagrams, formulas
from .diagrams import Drawn
from .store import Store, key
from .worker import WorkerError

__all__ = ["Drawer", "Drawn", "DrawError", "Unavailable", "mode_from_env"]

FENCE = re.compile(r'<pre class="mermaid"><code>(.*?)</code></pre>', re.S)
MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
WRAPS = (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$"))
ACC_TITLE = re.compile(r"^\s*accTitle\s*:\s*(.+)$", re.M)
KIND_NAMES = {"flowchart": "流程图", "graph": "流程图", "sequenceDiagram": "时序图", "classDiagram": "类图",
              "stateDiagram": "状态图", "stateDiagram-v2": "状态图", "gantt": "甘特图", "pie": "饼图",
              "erDiagram": "实体关系图", "timeline": "时间线", "mindmap": "思维导图"}
MODES = ("build", "browser", "auto")


class Unavailable(Exception):
    """Drawing was asked for and cannot be done here; the message says what to install."""


@dataclass
class DrawError:
    kind: str          # "diagram" | "formula"
    source: str        # as the author wrote it (the host finds its line)
    message: str


@dataclass
class Substituted:
    html: str
    errors: list[DrawError] = field(default_factory=list)
    removed: list = field(default_factory=list)   # (kind, source, sanitize.Removal)


def mode_from_env(default: str) -> str:
    mode = os.environ.get("SERIES_DRAW", "").strip().lower() or default
    if mode not in MODES:
        raise Unavailable(f"SERIES_DRAW={mode!r}: use one of {', '.join(MODES)}")
    return mode


def _fingerprint() -> str:
    """The code that shapes a cached drawing: a change to it draws everything again."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("../../sanitize/page.py", "../../sanitize/css.py", "diagrams.py", "formulas.py", "katex.mjs", "mermaid_worker.py",
                 "material-mermaid.css"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def _name(source: str) -> str:
    m = ACC_TITLE.search(source)
    if m:
        return m.group(1).strip()
    for line in source.splitlines():
        s = line.strip()
        if s and not s.startswith("%%") and s != "---" and ":" not in s.split()[0]:
            return KIND_NAMES.get(s.split()[0], "图")
    return "图"


class Drawer:
    def __init__(self, root: Path, mermaid_args: dict | None = None, mode: str = "build"):
        self.root = Path(root)
        self.mode, self.reason = mode, None
        if mode != "browser":
            reason = diagrams.missing(self.root) or formulas.missing(self.root)
            if reason:
                if mode == "build":
                    raise Unavailable(f"the build draws diagrams and formulas, and cannot here: {reason} "
                                      f"(or set SERIES_DRAW=browser to leave them to the reader's browser)")
                self.mode, self.reason = "browser", reason
        # SERIES_DRAW_CACHE: another folder for the cache (the test suite's builds share one)
        self.store = Store(Path(os.environ.get("SERIES_DRAW_CACHE") or self.root / ".cache" / "draw"))
        cfg = diagrams.settings(mermaid_args, diagrams.site_font(self.root))
        self.config = cfg
        fp = _fingerprint()
        self._dkey = ("diagram", str(diagrams.version(self.root)), json.dumps(cfg, sort_keys=True), fp)
        self._fkey = ("formula", str(formulas.version(self.root)), json.dumps(formulas.SETTINGS, sort_keys=True), fp)
        self._mermaid = self._katex = None
        self.stats = Counter()
        # the drawings this build has read from the cache or drawn, by key: a formula or diagram met
        # again on another page is not read and parsed again (`end_build` forgets them)
        self._read: dict[str, Drawn] = {}

    @property
    def drawing(self) -> bool:
        return self.mode != "browser"

    # --- the renderers, behind the cache ----------------------------------------------------------
    def _cached(self, kind: str, keys: list[str], render) -> list[Drawn]:
        out: list[Drawn | None] = []
        todo = []
        for i, k in enumerate(keys):
            hit = self._read.get(k)
            if hit is None:
                data = self.store.get(kind, k)
                if data is not None:
                    hit = self._read[k] = Drawn(data.get("html"), data.get("error"),
                                                [Removal(*r) for r in data.get("removed") or []
                                                 if isinstance(r, list) and len(r) == 3])
            if hit is not None:
                out.append(hit)
                self.stats[f"{kind}s cached"] += 1
            else:
                out.append(None)
                todo.append(i)
        if todo:
            for i, drawn in zip(todo, render(todo)):
                out[i] = drawn
                self.stats[f"{kind}s drawn"] += 1
                if drawn.error is None or not drawn.error.startswith("renderer"):
                    self.store.put(kind, keys[i], {"html": drawn.html, "error": drawn.error,
                                                   "removed": [[r.tag, r.attr, r.value] for r in drawn.removed]})
                    self._read[keys[i]] = drawn
        return out

    def diagrams(self, sources: list[str]) -> list[Drawn]:
        keys = [key(*self._dkey, s) for s in sources]

        def render(todo):
            if self._mermaid is None:
                self._mermaid = diagrams.worker(self.root)
            # the id comes from what the drawing is made of (not from the drawing code, whose changes
            # redraw everything but must not rename every diagram of the site)
            items = [{"id": "m" + key(*self._dkey[:3], sources[i])[:12], "source": sources[i]} for i in todo]
            try:
                results = self._mermaid.request({"config": self.config, "items": items})
            except WorkerError as exc:
                return [Drawn(error=f"renderer: {exc}") for _ in todo]
            return [diagrams.finish(r["svg"], _name(sources[i])) if "svg" in r else Drawn(error=r.get("error"))
                    for i, r in zip(todo, results)]
        return self._cached("diagram", keys, render)

    def formulas(self, items: list[tuple[str, bool]]) -> list[Drawn]:
        keys = [key(*self._fkey, "display" if d else "inline", t) for t, d in items]

        def render(todo):
            if self._katex is None:
                self._katex = formulas.worker(self.root)
            try:
                results = self._katex.request([{"tex": items[i][0], "display": items[i][1]} for i in todo])
            except WorkerError as exc:
                return [Drawn(error=f"renderer: {exc}") for _ in todo]
            return [formulas.finish(r) for r in results]
        return self._cached("formula", keys, render)

    def end_build(self) -> None:
        """A long-lived drawer (`mkdocs serve`) keeps no drawing past its build."""
        self._read.clear()

    def close(self) -> None:
        for w in (self._mermaid, self._katex):
            if w is not None:
                w.close()
        self._mermaid = self._katex = None

    # --- a page -----------------------------------------------------------------------------------
    def substitute(self, text: str) -> Substituted:
        """The page with its diagrams and formulas drawn (unchanged in browser mode)."""
        result = Substituted(text)
        if not self.drawing:
            return result
        fences = list(FENCE.finditer(text))
        maths = list(MATH.finditer(text))
        if not fences and not maths:
            return result
        sources = [htmllib.unescape(m.group(1)) for m in fences]
        tex = [_unwrap(htmllib.unescape(m.group(2))) for m in maths]
        drawn_d = self.diagrams(sources) if fences else []
        drawn_f = self.formulas([(t, m.group(1) == "div") for t, m in zip(tex, maths)]) if maths else []
        pieces: list[tuple[int, int, str]] = []
        seen: Counter = Counter()
        for m, src, d in zip(fences, sources, drawn_d):
            pieces.append((m.start(), m.end(), self._diagram_html(result, src, d, seen)))
        for m, t, d in zip(maths, tex, drawn_f):
            pieces.append((m.start(), m.end(), self._formula_html(result, m.group(1), t, d)))
        out, pos = [], 0
        for start, end, piece in sorted(pieces):
            out.append(text[pos:start])
            out.append(piece)
            pos = end
        out.append(text[pos:])
        result.html = "".join(out)
        return result

    def _diagram_html(self, result: Substituted, src: str, d: Drawn, seen: Counter) -> str:
        if d.html is None:
            result.errors.append(DrawError("diagram", src, d.error or "mermaid failed"))
            return str(html('<pre class="series-draw-error"><code>{}</code></pre>', src))
        result.removed += [("diagram", src, r) for r in d.removed]
        svg = d.html
        m = re.match(r'<svg[^>]*\bid="([\w-]+)"', svg)
        if m:
            seen[m.group(1)] += 1
            if seen[m.group(1)] > 1:        # the same diagram twice on a page: ids stay unique
                svg = svg.replace(m.group(1), f"{m.group(1)}-{seen[m.group(1)]}")
        return str(html('<div class="mermaid">{}</div>', Markup(svg)))

    def _formula_html(self, result: Substituted, tag: str, tex: str, d: Drawn) -> str:
        if d.html is None:
            result.errors.append(DrawError("formula", tex, d.error or "KaTeX failed"))
            return str(html('<code class="series-draw-error">{}</code>', tex))
        result.removed += [("formula", tex, r) for r in d.removed]
        tpl = '<div class="arithmatex">{}</div>' if tag == "div" else '<span class="arithmatex">{}</span>'
        return str(html(tpl, Markup(d.html)))


def _unwrap(tex: str) -> str:
    t = tex.strip()
    for left, right in WRAPS:
        if t.startswith(left) and t.endswith(right) and len(t) >= len(left) + len(right):
            return t[len(left):len(t) - len(right)]
    return t
