"""One pass over a post's body: fences, headings, images, tables, links, HTML comments, and a
"prose" view of every line in which code (fenced, indented, inline spans) and HTML comments are
blanked out with spaces, so columns stay those of the raw file.

Line numbers are 1-based lines of the raw file (frontmatter included); columns are 1-based
character offsets. Nothing here knows about the series conventions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?:>[ \t]?)*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
HEADING = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<text>.*?))?(?:[ \t]+#+)?[ \t]*$")
LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
TABLE_SEP = re.compile(r"^[ \t]*\|?[ \t]*:?-{1,}:?[ \t]*(?:\|[ \t]*:?-{1,}:?[ \t]*)*\|?[ \t]*$")
LINK_DEF = re.compile(r"^ {0,3}\[(?P<label>[^\]]+)\]:[ \t]*(?P<href><[^>]*>|\S+)")


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
class Body:
    fences: list[Fence] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    prose: dict[int, str] = field(default_factory=dict)   # line -> masked text (body lines only)
    in_code: set[int] = field(default_factory=set)        # lines inside fences or indented code (fence lines too)


BACKTICKS = re.compile(r"`+")
FENCE_CLOSE = re.compile(r"^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})[ \t]*$")
CELL_SPLIT = re.compile(r"(?<!\\)\|")


def _mask_inline_code(text: str) -> str:
    """Blank out inline code spans (backtick runs matched by length) on one line.

    A run of backticks opens a span that the next run of the same length closes; a run with no
    partner is literal text, and scanning goes on after it.
    """
    if "`" not in text:
        return text
    runs = [(m.start(), m.end()) for m in BACKTICKS.finditer(text)]
    parts = []
    pos = 0
    i, n = 0, len(runs)
    while i < n:
        a, b = runs[i]
        length = b - a
        j = i + 1
        while j < n and runs[j][1] - runs[j][0] != length:
            j += 1
        if j == n:
            i += 1
            continue
        end = runs[j][1]
        parts.append(text[pos:a])
        parts.append(" " * (end - a))
        pos = end
        i = j + 1
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)


def _split_cells(text: str) -> list[str]:
    s = text.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in CELL_SPLIT.split(s)]


def _scan_link_target(s: str, i: int) -> tuple[str, int, int] | None:
    """At s[i] == '(' return (href, href_start, index after the closing ')'), or None."""
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
        depth, hstart = 0, j
        while j < n:
            c = s[j]
            if c == "\\" and j + 1 < n:
                j += 2
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            elif c in " \t" and depth == 0:
                # a title may follow ("title"); a bare space inside a path is tolerated
                rest = s[j:].lstrip(" \t")
                if rest[:1] in ('"', "'", "("):
                    break
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


def _find_bracket_end(s: str, i: int) -> int:
    """At s[i] == '[' return the index of the matching ']' or -1."""
    depth, j, n = 0, i, len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def scan_links(line_no: int, s: str) -> tuple[list[Link], list[Image]]:
    """Inline links and images on one (masked) line."""
    links: list[Link] = []
    images: list[Image] = []
    i, n = 0, len(s)
    while i < n:
        i = s.find("[", i)
        if i < 0:
            break
        is_image = i > 0 and s[i - 1] == "!" and (i < 2 or s[i - 2] != "\\")
        close = _find_bracket_end(s, i)
        if close < 0 or close + 1 >= n or s[close + 1] != "(":
            i += 1
            continue
        target = _scan_link_target(s, close + 1)
        if target is None:
            i += 1
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
        i = after
    return links, images


def parse_body(lines: list[str], first: int) -> Body:
    """Parse lines[first-1:] (1-based `first`) of a post. `lines` are the raw lines without endings."""
    body = Body()
    n = len(lines)
    fence: Fence | None = None
    in_comment = False
    comment_start = (0, 0)
    comment_buf: list[str] = []
    prev_blank = True
    in_list = False
    in_indented_code = False
    table_lines: list[tuple[int, str]] = []
    prose, in_code = body.prose, body.in_code   # hot loop: local names

    def flush_table():
        if not table_lines:
            return
        if len(table_lines) >= 2 and TABLE_SEP.match(table_lines[1][1]) and "|" in table_lines[0][1]:
            header = _split_cells(table_lines[0][1])
            rows = [(ln, _split_cells(t)) for ln, t in table_lines[2:]]
            body.tables.append(Table(table_lines[0][0], table_lines[-1][0], header, rows))
        table_lines.clear()

    for idx in range(first - 1, n):
        ln = idx + 1
        raw = lines[idx]
        # --- inside a fence -------------------------------------------------------------
        if fence is not None:
            in_code.add(ln)
            prose[ln] = ""
            m = FENCE_CLOSE.match(raw) if "```" in raw or "~~~" in raw else None
            if m and m.group(1)[0] == fence.marker[0] and len(m.group(1)) >= len(fence.marker):
                fence.end = ln
                fence = None
                prev_blank = True
            continue
        # --- inside a multi-line HTML comment ---------------------------------------------
        text = raw
        if in_comment:
            end = text.find("-->")
            if end < 0:
                comment_buf.append(text)
                prose[ln] = " " * len(text)
                continue
            comment_buf.append(text[:end])
            body.comments.append(Comment(comment_start[0], comment_start[1], ln, "\n".join(comment_buf)))
            in_comment = False
            text = " " * (end + 3) + text[end + 3:]
        # --- fence opening ------------------------------------------------------------------
        m = FENCE_OPEN.match(text) if "```" in text or "~~~" in text else None
        if m and not in_indented_code and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
            if table_lines:
                flush_table()
            info = m.group("info").strip()
            lang = info.split()[0].lower().lstrip("{.").rstrip("}") if info else ""
            fence = Fence(ln, None, lang, info, m.group("fence"), m.group("indent"))
            body.fences.append(fence)
            in_code.add(ln)
            prose[ln] = ""
            continue
        blank = not text.strip()
        # --- indented code (only after a blank line, outside lists) ------------------------
        indented = text.startswith("    ") or text.startswith("\t")
        if in_indented_code:
            if blank or indented:
                in_code.add(ln)
                prose[ln] = ""
                prev_blank = blank
                continue
            in_indented_code = False
        elif indented and prev_blank and not in_list and not blank:
            in_indented_code = True
            in_code.add(ln)
            prose[ln] = ""
            if table_lines:
                flush_table()
            prev_blank = False
            continue
        # --- HTML comments (possibly opening a multi-line one) -------------------------------
        if "<!--" in text:
            out = []
            pos = 0
            while True:
                s = text.find("<!--", pos)
                if s < 0:
                    out.append(text[pos:])
                    break
                e = text.find("-->", s + 4)
                out.append(text[pos:s])
                if e < 0:
                    in_comment = True
                    comment_start = (ln, s + 1)
                    comment_buf = [text[s + 4:]]
                    out.append(" " * (len(text) - s))
                    break
                body.comments.append(Comment(ln, s + 1, ln, text[s + 4:e]))
                out.append(" " * (e + 3 - s))
                pos = e + 3
            text = "".join(out)
        masked = _mask_inline_code(text)
        prose[ln] = masked
        # --- structure -------------------------------------------------------------------------
        if blank:
            if table_lines:
                flush_table()
            prev_blank = True
            continue
        first_char = masked.lstrip(" \t")[:1]
        if (first_char in "-*+" or first_char.isdecimal()) and LIST_ITEM.match(masked):
            in_list = True
        elif prev_blank and not indented and not masked.startswith(" "):
            in_list = False
        hm = HEADING.match(masked) if "#" in masked[:4] else None
        if hm and not in_comment:
            if table_lines:
                flush_table()
            htext = (hm.group("text") or "").strip()
            col = masked.find(htext) + 1 if htext else len(masked) + 1
            body.headings.append(Heading(ln, len(hm.group("hashes")), htext, col))
            in_list = False
        elif masked.lstrip().startswith("|") or (table_lines and "|" in masked):
            table_lines.append((ln, masked))
        elif table_lines:
            flush_table()
        dm = LINK_DEF.match(masked) if "[" in masked[:4] else None
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
        prev_blank = False
    flush_table()
    if in_comment:
        body.comments.append(Comment(comment_start[0], comment_start[1], n, "\n".join(comment_buf)))
    return body
