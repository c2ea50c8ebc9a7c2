"""Inside a line: HTML comments, inline code spans (masked so the prose view keeps its columns),
table cells, and links and images with their targets; and `Lookahead`, what the body parser needs to
know about the lines still to come.
"""
from __future__ import annotations

import bisect
import re
from functools import cached_property

from .syntax import FENCE_CLOSE, Body, Image, Link


def comment_close(text: str, start: int, opening: bool = False) -> tuple[int, int]:
    """Where an HTML comment whose content starts at `start` ends, as browsers parse it: (index of the
    closing marker, index just after it), or (-1, -1). `-->` and `--!>` close a comment, and right
    after `<!--` so do `>` and `->` (`<!-->` and `<!--->` are complete, empty comments)."""
    if opening:
        if text.startswith(">", start):
            return start, start + 1
        if text.startswith("->", start):
            return start, start + 2
    ends = [(i, i + len(m)) for m in ("-->", "--!>") if (i := text.find(m, start)) >= 0]
    return min(ends) if ends else (-1, -1)


BACKTICKS = re.compile(r"`+")


def _single_ticks(text: str) -> bool:
    """The common line: single backticks, an even number of them, no escapes (they pair up in order)."""
    return "\\" not in text and "``" not in text and text.count("`") % 2 == 0


def _mask_single_ticks(text: str) -> str:
    """A `_single_ticks` line with its code spans blanked out."""
    pieces, last, a = [], 0, text.find("`")
    while a >= 0:
        b = text.find("`", a + 1)
        pieces += [text[last:a], " " * (b + 1 - a)]
        last = b + 1
        a = text.find("`", last)
    pieces.append(text[last:])
    return "".join(pieces)


def _mask_inline_code(text: str, later=None, longest_later=None,
                      start: int = 0, fast: bool = True) -> tuple[str, tuple[int, int] | None, int]:
    """Blank out inline code spans on one line, paired as Python-Markdown (3.x) pairs them.

    At each unescaped backtick, the opener is the rest of its run (M ticks); the code closes at the
    first later run of exactly M ticks, else at the first of the longest later runs if that is
    shorter than M (the opener being its first ticks, the rest of the run code); else the opener is
    literal and Python-Markdown resumes 2*M characters after the opener's first tick (so it can land
    inside the next run). Later runs include the later lines of the paragraph: `later(M)` says if a
    run of exactly M ticks is there, `longest_later()` is the longest run there; when the code closes
    on a later line the span stays open, returned as (index, ticks), and the rest of the line is its
    code. Scanning starts at `start` (carried over from the line before). Returns (masked text,
    open span or None, characters to skip at the start of the next line). Linear up to a logarithm.
    """
    if "`" not in text[start:]:
        return text, None, 0
    if fast and not start and _single_ticks(text):
        return _mask_single_ticks(text), None, 0
    runs = [(m.start(), m.end()) for m in BACKTICKS.finditer(text)]
    run_starts = [a for a, _ in runs]
    exact: dict[int, list[int]] = {}      # run length -> indices of the runs of that length
    for k, (a, b) in enumerate(runs):
        exact.setdefault(b - a, []).append(k)
    longest: list[tuple[int, int]] = [(0, -1)] * (len(runs) + 1)   # from run k on: (longest, first run with it)
    for k in range(len(runs) - 1, -1, -1):
        n = runs[k][1] - runs[k][0]
        longest[k] = (n, k) if n >= longest[k + 1][0] else longest[k + 1]
    pieces, last, pos, open_span = [], 0, start, None
    while True:
        a = text.find("`", pos)
        if a < 0:
            break
        j = a
        while j > 0 and text[j - 1] == "\\":
            j -= 1
        if (a - j) % 2:
            pos = a + 1                       # an escaped backtick opens nothing
            continue
        k = bisect.bisect_right(run_starts, a) - 1
        b = runs[k][1]
        m = b - a
        same = exact.get(m, [])
        i = bisect.bisect_right(same, k)
        if i < len(same):
            closer = runs[same[i]]
        elif later is not None and later(m):
            open_span = (a, m)
            break
        else:
            n, j = longest[k + 1]
            beyond = longest_later() if longest_later is not None else 0
            if beyond > n and beyond < m:
                open_span = (a, beyond)     # closes at the first such run of a later line
                break
            if not 0 < n < m:
                pos = a + 2 * m
                continue
            closer = runs[j]
        pieces += [text[last:a], " " * (closer[1] - a)]
        last = pos = closer[1]
    pieces.append(text[last:])
    skip = max(0, pos - len(text) - 1) if open_span is None else 0
    return "".join(pieces), open_span, skip


def _find_run(text: str, length: int) -> int:
    """Index of the first run of exactly `length` backticks in `text`, or -1."""
    for m in re.finditer(r"`+", text):
        if len(m.group(0)) == length:
            return m.start()
    return -1


def _mask_span(body: Body, span: tuple[int, int, int], mid: list[int], end_line: int, end: int) -> None:
    """Blank out a code span that opened at `span` and closes before index `end` of `end_line`: its
    lines' prose, and the links and images recorded inside it."""
    line, start, _ = span
    body.prose[line] = body.prose[line][:start] + " " * (len(body.prose[line]) - start)
    for n in mid:
        body.prose[n] = " " * len(body.prose.get(n, ""))

    def inside(ln: int, col: int) -> bool:
        return (ln == line and col > start) or line < ln < end_line or (ln == end_line and col <= end)

    # links and images are recorded in line order: only the tail can be inside the span
    for found in (body.links, body.images):
        k = len(found)
        while k > 0 and found[k - 1].line >= line:
            k -= 1
        found[k:] = [x for x in found[k:] if not inside(x.line, x.col)]


def split_cells(text: str) -> list[str]:
    s = text.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells = s.split("|") if "\\" not in s else re.split(r"(?<!\\)\|", s)   # (only a backslash escapes a `|`)
    return [c.strip() for c in cells]


def _matches(s: str, opener: str, closer: str) -> dict[int, int]:
    """Index of each `opener` in `s` -> index of its matching `closer` (a bracket after an odd number
    of backslashes is escaped); unmatched openers are left out. One pass over the brackets only,
    found with str.find, so scanning a line stays linear however it nests."""
    stack: list[int] = []
    out: dict[int, int] = {}
    escapes = "\\" in s
    for i in sorted(_positions(s, opener) + _positions(s, closer)):
        if escapes:
            j = i
            while j and s[j - 1] == "\\":
                j -= 1
            if (i - j) % 2:
                continue
        if s[i] == opener:
            stack.append(i)
        elif stack:
            out[stack.pop()] = i
    return out


def _positions(s: str, ch: str) -> list[int]:
    """Index of each `ch` in `s`."""
    out, i = [], s.find(ch)
    while i >= 0:
        out.append(i)
        i = s.find(ch, i + 1)
    return out


PATH_STOPS = "\\() \t"     # the characters _scan_link_target looks at in a link's path
PATH_RUN = re.compile(r"[^\\() \t]+")


def _scan_link_target(s: str, i: int, parens: list[dict[int, int]]) -> tuple[str, int, int] | None:
    """At s[i] == '(' return (href, href_start, index after the closing ')'), or None.
    `parens` holds `_matches(s, "(", ")")` once a path with a `(` has needed it (else it is empty)."""
    n = len(s)
    j = i + 1
    while j < n and s[j] in " \t":
        j += 1
    if j < n and s[j] == "<":
        k = s.find(">", j + 1)
        if k < 0:
            return None
        href, hstart = s[j + 1:k], j + 1
        j = k + 1
    else:
        hstart = j
        while j < n:
            c = s[j]
            if c not in PATH_STOPS:     # most of a path: jump over the run of such characters
                j = PATH_RUN.match(s, j).end()
                continue
            if c == "\\" and j + 1 < n:
                j += 2
                continue
            if c == "(":
                if not parens:
                    parens.append(_matches(s, "(", ")"))
                if j not in parens[0]:
                    return None      # never closed: no `)` at this depth can follow
                j = parens[0][j] + 1     # a balanced group inside the path
                continue
            if c == ")":
                break
            if c in " \t":
                # a title may follow ("title"); a bare space inside a path is tolerated
                k = j
                while k < n and s[k] in " \t":
                    k += 1
                if k < n and s[k] in ('"', "'", "("):
                    break
                j = k
                continue
            j += 1
        href = s[hstart:j].rstrip(" \t")
    while j < n and s[j] in " \t":
        j += 1
    if j < n and s[j] in "\"'(":
        quote = ")" if s[j] == "(" else s[j]
        k = s.find(quote, j + 1)
        if k < 0:
            return None
        j = k + 1
        while j < n and s[j] in " \t":
            j += 1
    if j >= n or s[j] != ")":
        return None
    return href, hstart, j + 1


def scan_links(line_no: int, s: str) -> tuple[list[Link], list[Image]]:
    """Inline links and images on one (masked) line, in time linear in its length."""
    links: list[Link] = []
    images: list[Image] = []
    if "](" not in s:     # every link and image has one (brackets in a formula have not)
        return links, images
    brackets = _matches(s, "[", "]")
    parens: list[dict[int, int]] = []   # the pairs of parentheses, found when a path holds one
    n = len(s)
    i = s.find("[")
    while 0 <= i < n:
        is_image = i > 0 and s[i - 1] == "!" and (i < 2 or s[i - 2] != "\\")
        close = brackets.get(i, -1)
        target = None
        if close >= 0 and close + 1 < n and s[close + 1] == "(":
            target = _scan_link_target(s, close + 1, parens)
        if target is None:
            i = s.find("[", i + 1)
            continue
        href, hstart, after = target
        text = s[i + 1:close]
        if is_image:
            k = after
            if k < n and s[k] == "{":
                end = s.find("}", k)
                if end > 0:
                    k = end + 1
            images.append(Image(line_no, i, text, href, hstart + 1, k + 1, s[k:]))
        else:
            links.append(Link(line_no, i + 1, text, href, hstart + 1, after + 1))
            # links inside the link text (rare) are not scanned further
        i = s.find("[", after)
    return links, images


class Lookahead:
    """What the parser needs to know about the lines after the one it is on: where the next comment
    closer, blank line and comment opener are, the longest closing fence still to come, the longest
    backtick run left in the paragraph, and which lines hold a backtick run of each length.

    Each kind of line that matters (blank lines, comment markers, backtick runs, closing fences) is
    kept as an ascending list of 0-based line indices, made on the parser's first question about it
    (most posts never ask about comments or code spans across lines): a question about "the first
    such line after i" is then a binary search. Lines before `first` (the frontmatter) are left out.
    """

    def __init__(self, lines: list[str], first: int):
        self.lines, self.n = lines, len(lines)
        self.rows = range(max(first - 1, 0), self.n)
        self._fences: dict[str, tuple[list[int], list[int]]] = {}

    @cached_property
    def blank(self) -> list[int]:
        lines = self.lines
        return [i for i in self.rows if not lines[i] or lines[i].isspace()]

    @cached_property
    def ticks(self) -> list[int]:
        """The lines with a backtick."""
        lines = self.lines
        return [i for i in self.rows if "`" in lines[i]]

    @cached_property
    def comments(self) -> tuple[list[int], list[int]]:
        """The lines with a comment closer (`-->`, `--!>`) and those with an opener (`<!--`)."""
        lines = self.lines
        marked = [i for i in self.rows if "--" in lines[i]]
        return ([i for i in marked if "-->" in lines[i] or "--!>" in lines[i]], [i for i in marked if "<!--" in lines[i]])

    @cached_property
    def runs(self) -> tuple[dict[int, list[int]], list[int]]:
        """Run length -> the lines holding a run of it; and for each line of `ticks`, the longest
        run on it and on the later lines of its paragraph."""
        lines, ticks = self.lines, self.ticks
        by_length: dict[int, list[int]] = {}
        longest = []
        for i in ticks:
            # (a line without a double backtick has runs of one only)
            lengths = {len(r) for r in BACKTICKS.findall(lines[i])} if "``" in lines[i] else {1}
            for length in lengths:
                by_length.setdefault(length, []).append(i)
            longest.append(max(lengths))
        paragraph = [bisect.bisect_left(self.blank, i) for i in ticks]   # lines with the same next blank line
        for k in range(len(ticks) - 2, -1, -1):
            if paragraph[k] == paragraph[k + 1]:
                longest[k] = max(longest[k], longest[k + 1])
        return by_length, longest

    def _closing_fences(self, ch: str) -> tuple[list[int], list[int]]:
        """The lines of closing fences of `ch` ("`" or "~"), and the longest of them from each on."""
        hit = self._fences.get(ch)
        if hit is None:
            lines = self.lines
            found = [(i, len(m.group(1))) for i in (self.ticks if ch == "`" else self.rows) if ch * 3 in lines[i]
                     and (m := FENCE_CLOSE.match(lines[i])) and m.group(1)[0] == ch]
            suffix = [length for _, length in found]
            for k in range(len(suffix) - 2, -1, -1):
                suffix[k] = max(suffix[k], suffix[k + 1])
            hit = self._fences[ch] = ([i for i, _ in found], suffix)
        return hit

    def _first(self, found: list[int], i: int) -> int:
        """The first entry of `found` at or after `i`, else n."""
        j = bisect.bisect_left(found, i)
        return found[j] if j < len(found) else self.n

    def next_blank(self, i: int) -> int:
        """The first blank line at or after i (n when there is none)."""
        return self._first(self.blank, i)

    def para_longest(self, i: int) -> int:
        """The longest backtick run on lines i.. to the end of their paragraph (0 on a blank line)."""
        ticks = self.ticks
        j = bisect.bisect_left(ticks, i)
        return self.runs[1][j] if j < len(ticks) and ticks[j] < self.next_blank(i) else 0

    def closing_fence_after(self, i: int, marker: str) -> bool:
        """A fence opened on line i with `marker` is closed later (else superfences takes it as text)."""
        found, suffix = self._closing_fences(marker[0])
        j = bisect.bisect_right(found, i)
        return j < len(found) and suffix[j] >= len(marker)

    def run_later_in_paragraph(self, i: int, length: int) -> bool:
        """A run of exactly `length` backticks on a later line of the paragraph of line i?"""
        return self._first(self.runs[0].get(length, []), i + 1) < self.next_blank(i + 1)

    def comment_closes_later(self, i: int, inline: bool) -> bool:
        """A `<!--` left open on line i is a comment: a closer follows (anywhere for one at the start
        of a line; within the paragraph, before another `<!--`, for one inside a line)."""
        closers, openers = self.comments
        later = self._first(closers, i + 1)
        return later < self.n and (not inline or (later < self.next_blank(i + 1) and not self._first(openers, i + 1) < later))
