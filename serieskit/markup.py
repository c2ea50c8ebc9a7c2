"""The one way this project writes HTML (and the Atom feed's XML) from Python.

Every fragment the engine or the MkDocs adapter writes (series index, tags, archive, home blocks,
glossary table, sister block, banner, figures, tooltips, findings, feed) is a `Markup` template whose
values are filled in by `Markup.format`: markupsafe escapes every value that is not itself `Markup`,
so a title, summary, tag, manifest or glossary value can never become markup, whoever forgets what.
Text that is already HTML (the author's Markdown, rendered by Python-Markdown) is wrapped in `Markup`
where it is passed on, which says in the code that it is trusted as HTML.

`tests/test_markup_only.py` fails on an f-string, `%` or `str.format` that writes a tag anywhere else
in `serieskit/` or `hooks/`.

Two helpers are for Markdown rather than HTML: generated pages are Markdown, and a value placed in
Markdown must neither become HTML (escaped) nor Markdown syntax (backslashes).
"""
from __future__ import annotations

import re

from markupsafe import Markup, escape

__all__ = ["Markup", "escape", "html", "join", "md_text", "doc_text"]


def html(template: str, *args, **kwargs) -> Markup:
    """`template` (a literal written in the code) with its `{}` fields filled by escaped values."""
    return Markup(template).format(*args, **kwargs)


def join(sep: str, parts) -> Markup:
    """Fragments joined by a literal separator (each part escaped unless it is Markup)."""
    return Markup(sep).join(parts)


MD_SPECIAL = re.compile(r"([\\`*_\[\]{}|])")


def md_text(s: str) -> str:
    """Frontmatter, manifest or glossary text as literal Markdown: HTML escaped (a title `<script>`
    shows as text), and backslashes before what would make links, code, emphasis, attribute lists or
    table cells of it."""
    return MD_SPECIAL.sub(r"\\\1", str(escape(s)))


CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def doc_text(s: str) -> str:
    """A rule's prose as Markdown that shows what it says: `<figure>` written in the text (outside a
    code span) is a word, not an element the browser would create (and swallow the sentence)."""
    out, pos = [], 0
    for m in CODE_SPAN.finditer(s):
        out.append(s[pos:m.start()].replace("<", "&lt;").replace(">", "&gt;"))
        out.append(m.group(0))
        pos = m.end()
    out.append(s[pos:].replace("<", "&lt;").replace(">", "&gt;"))
    return "".join(out)
