"""One pass over a post's body: fences, headings, images, tables, links, HTML comments, and a
"prose" view of every line in which code (fenced, indented, inline spans) and HTML comments are
blanked out with spaces, so columns stay those of the raw file.

Line numbers are 1-based lines of the raw file (frontmatter included); columns are 1-based
character offsets. Nothing here knows about the series conventions.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?:>[ \t]?)*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# The info string superfences accepts (language, then `{attributes}` or `key="value"` options);
# after anything else (```<b>) the line is no fence but text, and the backticks may open a code span.
FENCE_INFO = re.compile(r"""^[ \t]*(?:\.?[\w#.+-]+(?=[\t ]|$))?"""
                        r"""(?:[ \t]*\{[^\n]*\}|(?:[ \t]*[a-zA-Z][a-zA-Z0-9_]*(?:=(?P<q>"|').*?(?P=q))?(?=[\t ]|$))+)?[ \t]*$""")
FENCE_CLOSE = re.compile(r"^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})[ \t]*$")
HEADING = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<text>.*?))?(?:[ \t]+#+)?[ \t]*$")
HEADING_START = re.compile(r" {0,3}(#{1,6})[ \t]")
LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
LIST_LEAD = frozenset("-*+0123456789")   # the characters a list item's line can start with
NESTING_LEAD = frozenset(" \t>-*+0123456789")   # those a nested line can start with (see nesting())
# A line that starts with none of these, and contains none of `<[~`, no `-->` or `--!>` and only
# backticks that pair up in order, is prose, a heading or a table row (BodyParser._plain, the fast path).
PLAIN_EXCLUDED_FIRST = frozenset(" \t>-*+0123456789=_[!<`~:")
TABLE_SEP = re.compile(r"^[ \t]*\|?[ \t]*:?-{1,}:?[ \t]*(?:\|[ \t]*:?-{1,}:?[ \t]*)*\|?[ \t]*$")
# a `[label]: href` definition; `[^1]: text` is a footnote's definition (pymdownx / Python-Markdown
# footnotes), not a link
LINK_DEF = re.compile(r"^ {0,3}\[(?P<label>(?!\^)[^\]]+)\]:[ \t]*(?P<href><[^>]*>|\S+)")
CONTAINER = re.compile(r"[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))[ \t]?")
THEMATIC_BREAK = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
# Python-Markdown's block-level tags: one of these at the start of a line (indented at most 3 spaces)
# opens a raw HTML block that runs to its closing tag, blank lines included; Markdown (code spans too)
# is not processed inside unless the tag has a `markdown` attribute (md_in_html). Fences still are.
BLOCK_TAGS = frozenset("""address article aside blockquote body canvas center colgroup dd details dialog div dl
    dt fieldset figcaption figure footer form group h1 h2 h3 h4 h5 h6 header hgroup hr html iframe legend li
    main map math menu nav noscript object ol option output p pre progress script section style summary table
    tbody td textarea tfoot th thead tr ul video""".split())
HTML_BLOCK_OPEN = re.compile(r"^ {0,3}<(?P<tag>[A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)")
# Python-Markdown parses nested blocks recursively and raises RecursionError somewhere past 250 list
# levels (fewer inside admonitions or md_in_html); no post needs more than a handful.
MAX_NESTING = 50


@dataclass
class Fence:
    start: int                # line of the opening fence
    end: int | None           # line of the closing fence; None when never closed
    lang: str                 # first word of the info string, lower-cased
    info: str
    marker: str               # the fence characters, e.g. "```"
    indent: str

    @property
    def content_lines(self) -> range:
        last = self.end if self.end is not None else self.start  # caller bounds an unclosed fence
        return range(self.start + 1, last)


@dataclass
class Heading:
    line: int
    level: int
    text: str
    col: int                  # column of the text


@dataclass
class Image:
    line: int
    col: int                  # column of `!`
    alt: str
    src: str                  # as written (angle brackets removed)
    src_col: int
    close_col: int            # column just after the closing `)` (and any attr list)
    tail: str                 # what follows on the line after `)` (and attr list)


@dataclass
class Link:
    line: int
    col: int                  # column of `[` (or of the reference label)
    text: str
    href: str
    href_col: int
    end_col: int              # column just after `)`
    reference: bool = False   # a `[label]: href` definition


@dataclass
class Table:
    start: int
    end: int
    header: list[str]
    rows: list[tuple[int, list[str]]]   # (line, cells)


@dataclass
class Comment:
    start: int
    start_col: int
    end: int
    text: str                 # inside `<!--` and `-->`


@dataclass
class DeepBlock:
    start: int                # first line of the block (a run of non-blank lines) that nests too deep
    end: int                  # last line in it that nests too deep
    line: int                 # first line that goes past MAX_NESTING
    col: int                  # where it goes past (the marker that opens level MAX_NESTING + 1)
    depth: int                # deepest nesting in the block


def heading(text: str, fast: bool = True) -> tuple[int, str] | None:
    """(level, text stripped) of an ATX heading line, or None.

    The common heading ends with neither `#` nor a space or tab: then no closing `#`s or trailing
    blanks can match, and its text is all after the blanks that follow the `#`s (HEADING's lazy
    text, tried at every character, costs several times more). `fast=False`: always HEADING."""
    if fast and text[-1:] not in ("#", " ", "\t", ""):
        m = HEADING_START.match(text)
        return (len(m.group(1)), text[m.end():].strip()) if m else None
    hm = HEADING.match(text)
    return (len(hm.group("hashes")), (hm.group("text") or "").strip()) if hm else None


def nesting(text: str) -> tuple[int, int]:
    """(depth, col) of a line's block nesting as Python-Markdown sees it: a level per 4 columns of
    indentation plus one per list marker or `>` at the start (`- - - x` is three nested items).
    `col` is the 1-based column where level MAX_NESTING + 1 starts (0 when not reached)."""
    if text[:1] not in NESTING_LEAD:
        return 0, 0      # the common case: a line that starts with its text
    width = 0
    for ch in text:
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += 4 - width % 4
        else:
            break
    depth = width // 4
    col = len(text) - len(text.lstrip(" \t")) + 1 if depth > MAX_NESTING else 0
    if THEMATIC_BREAK.match(text):
        return depth, col
    pos = 0
    while True:
        m = CONTAINER.match(text, pos)
        if not m or m.end() == pos:
            break
        depth += 1
        if depth == MAX_NESTING + 1 and not col:
            col = len(m.group(0)) - len(m.group(0).lstrip(" \t")) + pos + 1
        pos = m.end()
    return depth, col


@dataclass
class Body:
    fences: list[Fence] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    prose: dict[int, str] = field(default_factory=dict)   # line -> masked text (body lines only)
    in_code: set[int] = field(default_factory=set)        # lines inside fences or indented code (fence lines too)
    deep: list[DeepBlock] = field(default_factory=list)   # blocks nested deeper than MAX_NESTING
    raw_html: dict[int, str] = field(default_factory=dict)  # lines of raw HTML blocks: comments masked, code spans not


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


def _split_cells(text: str) -> list[str]:
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


class BodyParser:
    """The body parser: a state machine over the lines of a post, one method per construct.

    `parse()` gives each line to the first construct that takes it: the inside of a fence
    (`_in_fence`), a plain prose or blank line between blocks (`_plain`, the fast path), else
    `step()`: the rest of a multi-line comment (`_comment_continues`), a fence opening
    (`_fence_opens`), indented code (`_indented_code`); otherwise the line goes through comments
    (`_comments`), raw HTML blocks (`_html_block`), code spans (`_code_span`, `_inline_code`) and
    the block structure (`_structure`: nesting, lists, headings, tables, links, images). What the
    parser knows about later lines comes from the `Lookahead`. Set `fast=False` to send every line
    down the full path (tests/test_fast_paths.py checks both give the same Body).
    """

    def __init__(self, lines: list[str], first: int, fast: bool = True):
        self.lines, self.first, self.fast = lines, first, fast
        self.body = Body()
        self.prose, self.in_code = self.body.prose, self.body.in_code    # the two most written
        self.ahead = Lookahead(lines, first)
        self.fence: Fence | None = None             # the fence we are in
        self.in_comment = False                     # inside a comment that spans lines
        self.comment_start = (0, 0)
        self.comment_buf: list[str] = []
        self.prev_blank = True
        self.in_list = False
        self.in_indented_code = False
        self.table_lines: list[tuple[int, str]] = []
        self.block_start = first                    # first line of the current run of non-blank lines
        self.html_tag: str | None = None            # the tag of the raw HTML block we are in
        self.html_depth = 0
        self.span: tuple[int, int, int] | None = None   # an open code span: (line, index, backtick count)
        self.span_mid: list[int] = []               # the lines after its opening line
        self.skip_ticks = 0   # Python-Markdown's scan for code spans may resume a few characters into the next line

    def parse(self) -> Body:
        lines, fast, in_fence, plain, step = self.lines, self.fast, self._in_fence, self._plain, self.step
        for idx in range(self.first - 1, len(lines)):
            # the two commonest cases first (a line in a fence, a plain line), without step()'s call
            if self.fence is not None:
                in_fence(idx + 1, lines[idx])
            elif not (fast and plain(idx + 1, lines[idx])):
                step(idx)
        self._flush_table()
        if self.in_comment:
            self.body.comments.append(Comment(self.comment_start[0], self.comment_start[1], len(lines),
                                              "\n".join(self.comment_buf)))
        return self.body

    def step(self, idx: int) -> None:
        """One line (0-based index) through the constructs, in the order Markdown gives them (parse()
        has tried the fence and the fast path)."""
        ln, raw = idx + 1, self.lines[idx]
        # (each construct's cheapest test is made here, so most lines skip the call)
        text = self._comment_continues(ln, raw) if self.in_comment else raw
        if text is None or (("```" in text or "~~~" in text) and self._fence_opens(idx, ln, text)):
            return
        blank = not text.strip()
        indented = text.startswith("    ") or text.startswith("\t")
        if (self.in_indented_code or indented) and self._indented_code(ln, blank, indented):
            return
        if "<!--" in text:
            text = self._comments(idx, ln, text)
        if self.html_tag is not None or (not self.in_list and text.lstrip(" ")[:1] == "<"):
            self._html_block(ln, text)
        if self.span is not None:
            text = self._code_span(ln, text, blank)
        elif blank:
            self.skip_ticks = 0
        masked = self._inline_code(idx, ln, text, blank)
        if blank:
            self._flush_table()
            self.prev_blank = True
            return
        self._structure(ln, raw, masked, indented)
        self.prev_blank = False

    # --- the constructs, in the order step() tries them ---------------------------------------------
    def _plain(self, ln: int, raw: str) -> bool:
        """The fast path: a blank line, or a line of prose, a heading or a table row between blocks
        (nothing in it can open a fence, comment, HTML block, link, list or quote, its backticks if any
        pair up in order, and no block is open), whose prose is the line with those code spans blanked
        out, exactly as the full path finds. (parse() calls it outside fences.)"""
        if self.in_comment or self.html_tag is not None or self.span is not None or self.in_indented_code:
            return False
        if not raw or raw.isspace():
            self.prose[ln] = raw
            self.skip_ticks = 0
            if self.table_lines:
                self._flush_table()
            self.prev_blank = True
            return True
        # (one `in` per character: a regex over a long line of Chinese costs several times more)
        if raw[0] in PLAIN_EXCLUDED_FIRST or "<" in raw or "[" in raw or "~" in raw \
                or ("--" in raw and ("-->" in raw or "--!>" in raw)):
            return False
        if "`" in raw:
            if self.skip_ticks or not _single_ticks(raw):
                return False
            raw = _mask_single_ticks(raw)
        self.prose[ln] = raw
        self.skip_ticks = 0
        if self.prev_blank:
            self.block_start = ln
            self.in_list = False
        hm = heading(raw) if raw[0] == "#" else None
        if hm:
            self._heading(ln, raw, hm)
        elif "|" in raw and (raw.lstrip().startswith("|") or self.table_lines):
            self.table_lines.append((ln, raw))     # as _structure() does
        elif self.table_lines:
            self._flush_table()
        self.prev_blank = False
        return True

    def _in_fence(self, ln: int, raw: str) -> None:
        """A line inside a fence: code, until the closing fence (same character, at least as long)."""
        fence = self.fence
        self.in_code.add(ln)
        self.prose[ln] = ""
        m = FENCE_CLOSE.match(raw) if fence.marker[:3] in raw else None
        if m and m.group(1)[0] == fence.marker[0] and len(m.group(1)) >= len(fence.marker):
            fence.end = ln
            self.fence = None
            self.prev_blank = True

    def _comment_continues(self, ln: int, text: str) -> str | None:
        """A line of a comment left open above: None while it stays open, else the line with the
        comment's end blanked out."""
        end, after = comment_close(text, 0)
        if end < 0:
            self.comment_buf.append(text)
            self.prose[ln] = " " * len(text)
            return None
        self.comment_buf.append(text[:end])
        self.body.comments.append(Comment(self.comment_start[0], self.comment_start[1], ln, "\n".join(self.comment_buf)))
        self.in_comment = False
        return " " * after + text[after:]

    def _fence_opens(self, idx: int, ln: int, text: str) -> bool:
        """A fence opening with a valid info string. True when the line opened a fence; a fence never
        closed (SYN001) is recorded but superfences takes the line as text, so it goes on."""
        m = FENCE_OPEN.match(text)
        if not m or self.in_indented_code or (m.group("fence")[0] == "`" and "`" in m.group("info")) \
                or not FENCE_INFO.match(m.group("info")):
            return False
        self._flush_table()
        info = m.group("info").strip()
        lang = info.split()[0].lower().lstrip("{.").rstrip("}") if info else ""
        opened = Fence(ln, None, lang, info, m.group("fence"), m.group("indent"))
        self.body.fences.append(opened)
        if not self.ahead.closing_fence_after(idx, opened.marker):
            return False
        self.fence = opened
        self.span, self.span_mid = None, []
        self.in_code.add(ln)
        self.prose[ln] = ""
        return True

    def _indented_code(self, ln: int, blank: bool, indented: bool) -> bool:
        """Indented code: opens after a blank line outside lists, runs over indented and blank lines."""
        if self.in_indented_code:
            if blank or indented:
                self.in_code.add(ln)
                self.prose[ln] = ""
                self.prev_blank = blank
                return True
            self.in_indented_code = False
        elif indented and self.prev_blank and not self.in_list and not blank:
            self.in_indented_code = True
            self.in_code.add(ln)
            self.prose[ln] = ""
            self._flush_table()
            self.prev_blank = False
            return True
        return False

    def _comments(self, idx: int, ln: int, text: str) -> str:
        """HTML comments on the line, blanked out (a last one left open opens a multi-line comment).
        Python-Markdown takes `<!--` as text when it never closes, and inside a paragraph also when
        another `<!--` comes before its `-->`: what follows is live HTML then."""
        out = []
        pos = 0
        while True:
            s = text.find("<!--", pos)
            if s < 0:
                out.append(text[pos:])
                break
            e, after = comment_close(text, s + 4, opening=True)
            out.append(text[pos:s])
            inline = bool(text[:s].strip())
            nested = inline and 0 <= text.find("<!--", s + 4) < (e if e >= 0 else len(text))
            if nested or (e < 0 and not self.ahead.comment_closes_later(idx, inline)):
                out.append(text[s:s + 4])
                pos = s + 4
                continue
            if e < 0:
                self.in_comment = True
                self.comment_start = (ln, s + 1)
                self.comment_buf = [text[s + 4:]]
                out.append(" " * (len(text) - s))
                break
            self.body.comments.append(Comment(ln, s + 1, ln, text[s + 4:e]))
            out.append(" " * (after - s))
            pos = after
        return "".join(out)

    def _html_block(self, ln: int, text: str) -> None:
        """Raw HTML blocks (a block-level tag at the start of a line, up to its closing tag): Markdown,
        code spans too, is not processed inside them; md_in_html's `markdown` attribute turns it on."""
        if self.html_tag is None and not self.in_list:
            hm = HTML_BLOCK_OPEN.match(text) if text.lstrip(" ")[:1] == "<" else None
            if hm and hm.group("tag").lower() in BLOCK_TAGS and not re.match(r"[^>]*\smarkdown\s*=", text[hm.end():]):
                self.html_tag, self.html_depth = hm.group("tag").lower(), 0
        if self.html_tag is None:
            return
        tag = self.html_tag
        self.body.raw_html[ln] = text
        if tag == "hr":
            self.html_tag = None
            return
        self.html_depth += len(re.findall(rf"<{tag}(?=[\s/>]|$)", text, re.I))
        self.html_depth -= len(re.findall(rf"</{tag}\s*>", text, re.I))
        if self.html_depth <= 0:
            self.html_tag = None

    def _code_span(self, ln: int, text: str, blank: bool) -> str:
        """A code span left open on an earlier line of the paragraph: closes at a run of its length
        (Python-Markdown renders it over the lines), or ends with the paragraph."""
        if self.span is not None and (blank or ln in self.body.raw_html or HEADING.match(text)
                                      or LIST_ITEM.match(text) or THEMATIC_BREAK.match(text)
                                      or text.lstrip().startswith("|")):
            self.span, self.span_mid = None, []
        if self.span is not None:
            span = self.span
            k = _find_run(text, span[2])
            if k >= 0:
                _mask_span(self.body, span, self.span_mid, ln, k + span[2])
                text = " " * (k + span[2]) + text[k + span[2]:]
                self.span, self.span_mid = None, []
            else:
                self.span_mid.append(ln)
        if blank or self.span is not None:
            self.skip_ticks = 0
        return text

    def _inline_code(self, idx: int, ln: int, text: str, blank: bool) -> str:
        """The line's prose: inline code spans blanked out; a span that closes on a later line opens."""
        if "`" not in text:
            self.prose[ln] = text
            self.skip_ticks = 0
            return text
        masked, opened, self.skip_ticks = _mask_inline_code(
            text, lambda m: self.ahead.run_later_in_paragraph(idx, m), lambda: self.ahead.para_longest(idx + 1),
            min(self.skip_ticks, len(text)), fast=self.fast)
        self.prose[ln] = masked
        if self.span is None and opened is not None and not blank and ln not in self.body.raw_html:
            self.span, self.span_mid = (ln, opened[0], opened[1]), []
        return masked

    def _structure(self, ln: int, raw: str, masked: str, indented: bool) -> None:
        """A non-blank line's place in the blocks: nesting depth, lists, headings, tables, links, images."""
        body = self.body
        if self.prev_blank:
            self.block_start = ln
        if masked[:1] in NESTING_LEAD:
            self._nesting(ln, masked)
        lead = masked.lstrip(" \t")[:1]     # most lines start with their text: skip the block patterns
        if lead in LIST_LEAD and LIST_ITEM.match(masked):
            self.in_list = True
        elif self.prev_blank and not indented and not masked.startswith(" "):
            self.in_list = False
        hm = heading(masked, self.fast) if lead == "#" else None
        if hm and not self.in_comment:
            self._heading(ln, masked, hm)
        elif masked.lstrip().startswith("|") or (self.table_lines and "|" in masked):
            self.table_lines.append((ln, masked))
        else:
            self._flush_table()
        dm = LINK_DEF.match(masked) if lead == "[" else None
        if dm:
            href = dm.group("href").strip("<>")
            body.links.append(Link(ln, dm.start("label"), dm.group("label"), href, dm.start("href") + 1,
                                   dm.end("href") + 1, reference=True))
        if "[" in masked:
            links, images = scan_links(ln, masked)
            body.links.extend(links)
            for img in images:
                # record the caption tail from the raw line, so trailing spaces are the author's
                img.tail = raw[img.close_col - 1:] if len(raw) >= img.close_col - 1 else ""
                body.images.append(img)

    def _heading(self, ln: int, masked: str, hm: tuple[int, str]) -> None:
        """A heading line (hm: heading()'s level and text): it ends a table and a list."""
        self._flush_table()
        level, htext = hm
        col = masked.find(htext) + 1 if htext else len(masked) + 1
        self.body.headings.append(Heading(ln, level, htext, col))
        self.in_list = False

    def _nesting(self, ln: int, masked: str) -> None:
        """Lists and quotes nested past MAX_NESTING (SYN002): one DeepBlock per run of lines."""
        depth, col = nesting(masked)
        if depth <= MAX_NESTING:
            return
        deep = self.body.deep
        last = deep[-1] if deep else None
        if last is not None and last.start == self.block_start:
            last.end, last.depth = ln, max(last.depth, depth)
        else:
            deep.append(DeepBlock(self.block_start, ln, ln, col, depth))

    def _flush_table(self) -> None:
        """The table the collected lines make (a header, a separator row, rows), if any."""
        table_lines = self.table_lines
        if not table_lines:
            return
        if len(table_lines) >= 2 and TABLE_SEP.match(table_lines[1][1]) and "|" in table_lines[0][1]:
            header = _split_cells(table_lines[0][1])
            rows = [(ln, _split_cells(t)) for ln, t in table_lines[2:]]
            self.body.tables.append(Table(table_lines[0][0], table_lines[-1][0], header, rows))
        table_lines.clear()


def parse_body(lines: list[str], first: int, fast: bool = True) -> Body:
    """Parse lines[first-1:] (1-based `first`) of a post. `lines` are the raw lines without endings."""
    return BodyParser(lines, first, fast).parse()
