"""Chinese quotation marks and brackets in a post's prose, paragraph by paragraph: what TYP002
(a closing mark that opens a quote) and TYP004 (a mark without its other half) check."""
from __future__ import annotations

import re

from serieskit.finding import Edit

from .prose import candidate_lines

PAIRS = {"（": "）", "《": "》", "「": "」", "『": "』", "【": "】"}
CLOSERS = {v: k for k, v in PAIRS.items()}


def quote_problems(marks):
    """Double quotes in order, (line, col, mark): a closing mark where an opening one belongs, an
    opening mark inside a quote, a quote left open."""
    open_at = None
    for k, (line, col, m) in enumerate(marks):
        if m == "“":
            if open_at is not None:
                yield line, col, "`“` opens a quote inside another one, which `“` opened before", None
            open_at = (line, col)
        elif open_at is None:
            nxt = next((x for x in marks[k + 1:]), None)
            fix = [Edit(line, col, col + 1, "“")] if nxt is not None and nxt[2] == "”" else None
            yield line, col, "`”` (a closing quotation mark) opens a quote", fix
            if fix:
                open_at = (line, col)
        else:
            open_at = None
    if open_at is not None:
        yield open_at[0], open_at[1], "`“` opens a quote that the paragraph never closes", None


def bracket_problems(marks):
    stack = []
    for line, col, m in marks:
        if m in PAIRS:
            stack.append((line, col, m))
        elif stack and stack[-1][2] == CLOSERS[m]:
            stack.pop()
        else:
            yield line, col, f"`{m}` closes a `{CLOSERS[m]}` that is not open", None
    for line, col, m in stack:
        yield line, col, f"`{m}` is never closed by `{PAIRS[m]}` in its paragraph", None


QUOTES = re.compile("[“”]")
ANY = re.compile("[“”" + "".join(PAIRS) + "".join(CLOSERS) + "]")
BRACKETS = re.compile("[" + "".join(PAIRS) + "".join(CLOSERS) + "]")


def marks_of(para, which: re.Pattern) -> list[tuple[int, int, str]]:
    """The marks `which` finds in a paragraph's segments: (line, column, mark)."""
    return [(line, col + m.start(), m.group(0)) for line, col, text in para for m in which.finditer(text)]


def unbalanced_lines(post, lines: list[int]) -> list[int]:
    """Of `lines`, those whose raw text does not balance each pair of marks: only around these can
    a paragraph hold a mark without its other half (a paragraph of balanced lines is balanced)."""
    out = []
    for n in lines:
        raw = post.line(n)
        if raw.count("“") != raw.count("”") or any(raw.count(o) != raw.count(c) for o, c in PAIRS.items()):
            out.append(n)
    return out


def unbalanced_mark_lines(post) -> list[int]:
    """The body lines that hold a quotation mark or a full-width bracket and do not balance each pair
    in their raw text: where TYP004 looks, and (those with a quotation mark) TYP002. One search of
    the body for both rules."""
    return post.memo("unbalanced-marks", None, lambda: unbalanced_lines(post, candidate_lines(post, ANY)))
