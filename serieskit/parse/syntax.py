"""The Markdown constructs a post's body is parsed into (fences, headings, images, links, tables,
comments, blocks nested too deep, the parsed `Body`) and the patterns that recognise a block's first
line. Line numbers are 1-based lines of the raw file (frontmatter included); columns are 1-based
character offsets.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

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
