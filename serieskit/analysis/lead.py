"""The lead of a post (before its first `##`): the sister-post line and the timeliness banner.

Parsed once per post and cached on it; the SIS and TML rules and the renderer share the result.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from serieskit.conventions import Conventions
from serieskit.model.site import Post

LINK_ITEM = re.compile(
    r"^\[(?P<text>(?:[^\[\]\\]|\\.)+)\]\((?P<href><[^>]*>|[^()\s]+(?:\([^()\s]*\))?)(?:\s+\"[^\"]*\")?\)"
    r"(?P<note>\s*(?:（[^（）]*）|\([^()]*\)))?\s*$")
MARKER_ANY = re.compile(r"\s*[（(]\s*在做\s*[）)]\s*$")
QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)+")


@dataclass
class SisterItem:
    line: int
    col: int              # 1-based column of the item's first character
    end_col: int          # column just after the item (on end_line)
    text: str             # the item as written
    kind: str             # "link" | "plain"
    href: str = ""
    href_col: int = 0
    label: str = ""       # link text, or the plain title without marker
    note: str = ""
    marked: bool = False  # ends with （在做）
    marker_exact: bool = False
    end_line: int = 0

    @property
    def one_line(self) -> bool:
        return self.end_line in (0, self.line)


@dataclass
class SisterLine:
    line: int
    col: int
    items: list[SisterItem] = field(default_factory=list)


@dataclass
class Banner:
    line: int
    col: int              # column of ⚠️
    date: str | None      # the date text as written, or None when the pattern did not match
    date_col: int = 0     # column of the date text


def _paragraphs(post: Post, lines: range):
    """Yield paragraphs of the lead as lists of (line, text-without-blockquote-prefix, prefix_len)."""
    para: list[tuple[int, str, int]] = []
    for ln in lines:
        t = post.prose(ln)
        if ln in post.body.in_code or not t.strip():
            if para:
                yield para
            para = []
            continue
        m = QUOTE_PREFIX.match(t)
        plen = m.end() if m else 0
        stripped = t[plen:]
        if not stripped.strip():
            if para:
                yield para
            para = []
            continue
        lead_ws = len(stripped) - len(stripped.lstrip())
        para.append((ln, stripped.strip(), plen + lead_ws))
    if para:
        yield para


def sister_line(post: Post, conv: Conventions) -> SisterLine | None:
    """The post's sister line (the lead's paragraph starting `姊妹篇：`), or None."""
    return post.memo("sister_line", conv.fingerprint, lambda: _sister_line(post, conv))


def _sister_line(post: Post, conv: Conventions) -> SisterLine | None:
    result = None
    for para in _paragraphs(post, post.lead_range()):
        first_ln, first_text, first_off = para[0]
        if not first_text.startswith(conv.sister_prefix):
            continue
        result = SisterLine(first_ln, first_off + 1)
        # Work on the paragraph's lines joined by spaces; at(i) is (line, column) of joined[i].
        joined, at = _joined(para, len(conv.sister_prefix))
        pos = 0
        pieces = []
        for m in conv.sister_separator.finditer(joined):
            pieces.append((pos, m.start()))
            pos = m.end()
        pieces.append((pos, len(joined)))
        for a, b in pieces:
            seg = joined[a:b]
            lstrip = len(seg) - len(seg.lstrip())
            seg_s = seg.strip()
            if not seg_s:
                continue
            a2 = a + lstrip
            ch_line, ch_col = at(a2)
            end_line, end_col = at(a2 + len(seg_s) - 1)
            end_col += 1
            m = LINK_ITEM.match(seg_s)
            if m:
                note = (m.group("note") or "").strip()
                item = SisterItem(ch_line, ch_col, end_col, seg_s, "link", m.group("href").strip("<>"),
                                  at(a2 + m.start("href"))[1], m.group("text"), note)
                item.marked = bool(note and MARKER_ANY.fullmatch(note))
                item.marker_exact = note == conv.planned_marker
                item.end_line = end_line
            else:
                mm = MARKER_ANY.search(seg_s)
                label = seg_s[:mm.start()].strip() if mm else seg_s
                item = SisterItem(ch_line, ch_col, end_col, seg_s, "plain", label=label, marked=bool(mm),
                                  marker_exact=bool(mm) and seg_s.endswith(conv.planned_marker), end_line=end_line)
            result.items.append(item)
        break
    return result


def _joined(para: list[tuple[int, str, int]], skip: int):
    """A paragraph's lines (after the first `skip` characters) each followed by a space, as one
    string, and the function giving (line, column) of each of its characters."""
    pieces: list[str] = []
    starts: list[int] = []                  # where each line starts in the joined string
    places: list[tuple[int, int]] = []      # (line, column) of that first character
    pos = 0
    for k, (ln, text, off) in enumerate(para):
        start = skip if k == 0 else 0
        starts.append(pos)
        places.append((ln, off + start + 1))
        pieces.append(text[start:] + " ")
        pos += len(pieces[-1])

    def at(i: int) -> tuple[int, int]:
        k = bisect.bisect_right(starts, i) - 1
        ln, col = places[k]
        return ln, col + i - starts[k]
    return "".join(pieces), at


def banner(post: Post, conv: Conventions) -> Banner | None:
    """The post's timeliness banner (a lead line starting `⚠️ 时效声明`), or None."""
    return post.memo("banner", conv.fingerprint, lambda: _banner(post, conv))


def _banner(post: Post, conv: Conventions) -> Banner | None:
    result = None
    for ln in post.lead_range():
        if ln in post.body.in_code:
            continue
        t = post.prose(ln)
        m = QUOTE_PREFIX.match(t)
        off = m.end() if m else 0
        rest = t[off:]
        lstrip = len(rest) - len(rest.lstrip())
        rest = rest.lstrip()
        if not rest.startswith(conv.banner_prefix) and not rest.startswith(conv.banner_prefix.replace("\ufe0f", "")):
            continue
        bm = conv.banner_regex.match(rest)
        col = off + lstrip + 1
        if bm and "date" in bm.groupdict():
            result = Banner(ln, col, bm.group("date"), col + bm.start("date"))
        else:
            result = Banner(ln, col, None)
        break
    return result
