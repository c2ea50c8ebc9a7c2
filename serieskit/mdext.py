"""The site's rendering as a Python-Markdown extension, for any host that converts Markdown with
Python-Markdown (MkDocs, Zensical): list `serieskit.mdext` under `markdown_extensions`.

The engine renders each post to Markdown (serieskit/render.py `render_post`); what is left for the
conversion is the glossary tooltips. A rendered post carries its tooltips as marks in the text and,
on its last line, their titles (`<!-- series-tooltips [...] -->`, render.py `tooltip_table`); this
extension takes that line out before anything else reads the document and turns the marks into
`<abbr class="series-term" title="...">` once the HTML is written (`apply_tooltips`). A document
without the line (a hand-written page) is converted as it is.
"""
from __future__ import annotations

import json

from markdown import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from .render import TOOLTIP_TABLE as TABLE, apply_tooltips

class _TakeTable(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        self.md.series_tooltips = []
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


class SeriesExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # before the raw-HTML preprocessor (20) stashes the comment; after every other postprocessor
        md.preprocessors.register(_TakeTable(md), "series_tooltip_table", 25)
        md.postprocessors.register(_Tooltips(md), "series_tooltips", 1)


def makeExtension(**kwargs) -> SeriesExtension:
    return SeriesExtension(**kwargs)
