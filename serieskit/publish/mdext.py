"""The site's rendering as a Python-Markdown extension, for any host that converts Markdown with
Python-Markdown (MkDocs, Zensical): list `serieskit.publish.mdext` under `markdown_extensions`.

The engine renders each post to Markdown (serieskit/render/post.py `render_post`); what is left for the
conversion is the glossary tooltips. A rendered post carries its tooltips as marks in the text and,
on its last line, their titles (`<!-- series-tooltips [...] -->`, serieskit/render/post.py `tooltip_table`); this
extension takes that line out before anything else reads the document and turns the marks into
`<abbr class="series-term" title="...">` once the HTML is written (`apply_tooltips`). A document
without the line (a hand-written page) is converted as it is.

Then, last of all, the output gate and the drawings (`_Publish`): the page's HTML passes the site's
allow-list sanitizer (serieskit/sanitize/: what it removes is reported, the sanitized text is what
the page gets), and its diagrams and formulas are drawn by the build (serieskit/publish/draw/). What happened
on the last page converted is `take_report()`'s: the MkDocs adapter takes it after each page; a host
that converts in another process (Zensical) names a `report` file, and each page's report is appended
to it as a JSON line keyed by the SHA-256 of the page's Markdown. The drawer is the host's
(`use_drawer`), or, given the `root` option, the extension's own.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from markdown import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from serieskit import sanitize
from .draw import Drawer, mode_from_env
from serieskit.render.post import TOOLTIP_TABLE as TABLE, apply_tooltips


@dataclass
class PageReport:
    """What the gate removed from the last page converted, and what could not be drawn."""
    digest: str = ""
    removed: list = field(default_factory=list)       # sanitize.Removal
    draw_errors: list = field(default_factory=list)   # draw.DrawError
    draw_removed: list = field(default_factory=list)  # (kind, source, Removal)

    def as_json(self) -> dict:
        return {"digest": self.digest,
                "removed": [[r.tag, r.attr, r.value] for r in self.removed + [x[2] for x in self.draw_removed]],
                "draw_errors": [[e.kind, e.source, e.message] for e in self.draw_errors]}


def page_digest(markdown: str) -> str:
    """A page's Markdown as a key that Python-Markdown's whitespace normalising does not change."""
    return hashlib.sha256("".join(markdown.split()).encode("utf-8")).hexdigest()


_drawer: Drawer | None = None
_last = PageReport()


def use_drawer(drawer: Drawer | None) -> None:
    """The host's drawer for the pages converted from now on (None: leave diagrams and formulas alone)."""
    global _drawer
    _drawer = drawer


def peek_report() -> PageReport:
    return _last


def restore_report(report: PageReport) -> None:
    """A memoised conversion's report (mkdocs serve converts an unchanged page only once)."""
    global _last
    _last = report


def take_report() -> PageReport:
    """The report of the page converted last (each conversion starts a new one)."""
    global _last
    report, _last = _last, PageReport()
    return report


class _TakeTable(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        self.md.series_tooltips = []
        self.md.series_digest = page_digest("\n".join(lines))
        end = len(lines)
        while end and not lines[end - 1].strip():
            end -= 1
        m = TABLE.fullmatch(lines[end - 1].strip()) if end else None
        if m is None:
            return lines
        try:
            titles = json.loads(m.group(1))
        except ValueError:
            return lines
        if isinstance(titles, list) and all(isinstance(t, str) for t in titles):
            self.md.series_tooltips = titles
        return lines[:end - 1] + lines[end:]   # the blank lines after it end the last block


class _Tooltips(Postprocessor):
    def run(self, text: str) -> str:
        return apply_tooltips(text, getattr(self.md, "series_tooltips", []))


class _Publish(Postprocessor):
    """The output gate, then the drawings: the last thing done to a page's HTML."""

    def __init__(self, md, ext: SeriesExtension):
        super().__init__(md)
        self.ext = ext

    def run(self, text: str) -> str:
        global _last
        report = PageReport(digest=getattr(self.md, "series_digest", ""))
        cleaned = sanitize.clean(text)
        report.removed = cleaned.removed
        drawer = self.ext.drawer()
        text = cleaned.html
        if drawer is not None:
            done = drawer.substitute(text)
            text, report.draw_errors, report.draw_removed = done.html, done.errors, done.removed
        _last = report
        self.ext.write_report(report)
        return text


class SeriesExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {
            "root": ["", "the project's folder: the extension draws with its own drawer (a host without hooks)"],
            "report": ["", "a file each page's report is appended to (JSON lines), for a host in another process"],
        }
        super().__init__(**kwargs)
        self._own: Drawer | None = None

    def drawer(self) -> Drawer | None:
        root = self.getConfig("root")
        if not root:
            return _drawer
        if self._own is None:
            self._own = Drawer(Path(root), None, mode_from_env("build"))
        return self._own

    def write_report(self, report: PageReport) -> None:
        path = self.getConfig("report")
        if path:   # every page, so that a page's last line is its current report
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(report.as_json(), ensure_ascii=False) + "\n")

    def extendMarkdown(self, md) -> None:
        # before the raw-HTML preprocessor (20) stashes the comment; after every other postprocessor
        md.preprocessors.register(_TakeTable(md), "series_tooltip_table", 25)
        md.postprocessors.register(_Tooltips(md), "series_tooltips", 1)
        md.postprocessors.register(_Publish(md, self), "series_publish", 0)


def makeExtension(**kwargs) -> SeriesExtension:
    return SeriesExtension(**kwargs)
