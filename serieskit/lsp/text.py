"""An open document's text and the two ways of naming a place in it.

The engine counts lines of the raw file split at `\\n` (a `\\r` before it belongs to the line break),
1-based, and columns in code points, 1-based (`Finding`, `Edit`; SARIF's `unicodeCodePoints`). LSP
counts lines split at `\\r\\n`, `\\r` or `\\n`, 0-based, and characters in the code units of the
negotiated position encoding: UTF-16 unless the client offered utf-8 or utf-32 (LSP 3.17,
`positionEncoding`). Both go through an offset in code points, so a lone `\\r`, a byte-order mark
or a character outside the BMP (emoji) cannot shift a place. Plain Python: no pygls here.
"""
from __future__ import annotations

import bisect
import re

LSP_BREAK = re.compile(r"\r\n|\r|\n")
WORD = re.compile(r"[A-Za-z0-9_]+|\S")    # the place of a finding without an end: a Latin word or one character
UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(s: str, encoding: str) -> int:
    """Length of `s` in code units of `encoding`."""
    if encoding == UTF32 or s.isascii():
        return len(s)
    if encoding == UTF8:
        return len(s.encode("utf-8", "surrogatepass"))
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def index_at_units(s: str, n: int, encoding: str) -> int:
    """The code point index of `s` that is `n` code units in (the end of `s` when it is shorter; a
    place inside a character is taken as the end of that character)."""
    if n <= 0:
        return 0
    if encoding == UTF32 or s.isascii():
        return min(n, len(s))
    count = 0
    for i, ch in enumerate(s):
        if count >= n:
            return i
        count += units(ch, encoding)
    return len(s)


class Text:
    """A document's text with its line starts in both systems (computed on first use)."""

    def __init__(self, text: str):
        self.text = text
        self._lsp: list[int] | None = None
        self._engine: list[int] | None = None

    @property
    def lsp_starts(self) -> list[int]:
        if self._lsp is None:
            self._lsp = [0] + [m.end() for m in LSP_BREAK.finditer(self.text)]
        return self._lsp

    @property
    def engine_starts(self) -> list[int]:
        """Where each engine line starts. The engine decodes with `utf-8-sig`: a byte-order mark is
        not part of line 1."""
        if self._engine is None:
            base = 1 if self.text.startswith("\ufeff") else 0
            starts, i = [base], self.text.find("\n", base)
            while i >= 0:
                starts.append(i + 1)
                i = self.text.find("\n", i + 1)
            self._engine = starts
        return self._engine

    # --- LSP positions -------------------------------------------------------------------------
    def _lsp_line(self, line: int) -> tuple[int, int]:
        """(start, end of content) of LSP line `line`, 0-based; past the end: the end of the text."""
        starts = self.lsp_starts
        if line >= len(starts):
            return len(self.text), len(self.text)
        start = starts[max(line, 0)]
        if line + 1 >= len(starts):
            return start, len(self.text)
        end = starts[line + 1]
        return start, end - (2 if self.text.startswith("\r\n", end - 2) and end - 2 >= start else 1)

    def offset(self, line: int, character: int, encoding: str) -> int:
        """The code point offset of an LSP position (a character past the line's end is its end)."""
        start, end = self._lsp_line(line)
        return start + index_at_units(self.text[start:end], character, encoding)

    def position(self, offset: int, encoding: str) -> tuple[int, int]:
        """The LSP (line, character) of a code point offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.lsp_starts, offset) - 1
        return line, units(self.text[self.lsp_starts[line]:offset], encoding)

    # --- engine positions ----------------------------------------------------------------------
    def engine_line(self, line: int) -> tuple[int, int]:
        """(start, end of content) of engine line `line`, 1-based, clamped to the text's lines."""
        starts = self.engine_starts
        n = min(max(line, 1), len(starts))
        start = starts[n - 1]
        end = starts[n] - 1 if n < len(starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return start, end

    def engine_offset(self, line: int, column: int) -> int:
        """The code point offset of an engine (line, column); a column past the line's end is its end."""
        start, end = self.engine_line(line)
        return min(start + max(column, 1) - 1, end)

    def word_end(self, line: int, column: int) -> int:
        """The end of the Latin word or the character at an engine place (the place itself at the
        end of a line)."""
        start, end = self.engine_line(line)
        at = self.engine_offset(line, column)
        m = WORD.match(self.text, at, end)
        return m.end() if m else at

    def apply(self, start: tuple[int, int] | None, end: tuple[int, int] | None, new: str, encoding: str) -> Text:
        """The text after an LSP content change (no range: the whole text replaced)."""
        if start is None or end is None:
            return Text(new)
        a, b = self.offset(*start, encoding), self.offset(*end, encoding)
        if b < a:
            a, b = b, a
        return Text(self.text[:a] + new + self.text[b:])

    def edit_to(self, new: str) -> tuple[int, int, str]:
        """The smallest single replacement that turns this text into `new`: (start offset, end offset,
        replacement)."""
        old = self.text
        a = _common(old, new, min(len(old), len(new)), prefix=True)
        b = _common(old, new, min(len(old), len(new)) - a, prefix=False)
        return a, len(old) - b, new[a:len(new) - b]


def _common(x: str, y: str, limit: int, prefix: bool) -> int:
    """Length (at most `limit`) of the common prefix, or suffix, of x and y: a binary search whose
    comparisons each look only at the part not yet known to match (C speed on a 5 MB post)."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        same = (x.startswith(y[lo:mid], lo) if prefix
                else x.endswith(y[len(y) - mid:len(y) - lo], 0, len(x) - lo))
        lo, hi = (mid, hi) if same else (lo, mid - 1)
    return lo
