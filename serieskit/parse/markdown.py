"""One pass over a post's body: fences, headings, images, tables, links, HTML comments, and a
"prose" view of every line in which code (fenced, indented, inline spans) and HTML comments are
blanked out with spaces, so columns stay those of the raw file.

Line numbers are 1-based lines of the raw file (frontmatter included); columns are 1-based
character offsets. Nothing here knows about the series conventions.
"""
from __future__ import annotations

import re

from .inline import (
    Lookahead,
    _find_run,
    _mask_inline_code,
    _mask_single_ticks,
    _mask_span,
    _single_ticks,
    split_cells,
    comment_close,
    scan_links,
)
from .syntax import (
    BLOCK_TAGS,
    FENCE_CLOSE,
    FENCE_INFO,
    FENCE_OPEN,
    HEADING,
    HTML_BLOCK_OPEN,
    LINK_DEF,
    LIST_ITEM,
    LIST_LEAD,
    MAX_NESTING,
    NESTING_LEAD,
    PLAIN_EXCLUDED_FIRST,
    TABLE_SEP,
    THEMATIC_BREAK,
    Body,
    Comment,
    DeepBlock,
    Fence,
    Heading,
    Link,
    Table,
    heading,
    nesting,
)


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
            header = split_cells(table_lines[0][1])
            rows = [(ln, split_cells(t)) for ln, t in table_lines[2:]]
            self.body.tables.append(Table(table_lines[0][0], table_lines[-1][0], header, rows))
        table_lines.clear()


def parse_body(lines: list[str], first: int, fast: bool = True) -> Body:
    """Parse lines[first-1:] (1-based `first`) of a post. `lines` are the raw lines without endings."""
    return BodyParser(lines, first, fast).parse()
