"""Numbered `##` sections (零、一、二、…) and the skeleton table; shared by the SKL and NUM rules
and by `new_post`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from serieskit.conventions import Conventions
from serieskit.parse.syntax import Heading, Table
from serieskit.model.site import Post

DIGITS = "零一二三四五六七八九"
NUMBERED = re.compile(r"^(?P<num>[零一二三四五六七八九十百]+)、\s*(?P<title>.*)$")
SECTION_REF = re.compile(r"^§\s*(?P<num>[零一二三四五六七八九十百]+)\s*$")


def to_chinese(n: int) -> str:
    """0..999 as a Chinese numeral: 0 零, 10 十, 11 十一, 20 二十, 105 一百零五."""
    if n < 10:
        return DIGITS[n]
    if n < 20:
        return "十" + (DIGITS[n - 10] if n > 10 else "")
    if n < 100:
        t, u = divmod(n, 10)
        return DIGITS[t] + "十" + (DIGITS[u] if u else "")
    h, rest = divmod(n, 100)
    if rest == 0:
        return DIGITS[h] + "百"
    return DIGITS[h] + "百" + ("零" + DIGITS[rest] if rest < 10 else ("一" + to_chinese(rest) if rest < 20 else to_chinese(rest)))


_FROM = {to_chinese(i): i for i in range(0, 1000)}


def from_chinese(s: str) -> int | None:
    return _FROM.get(s)


@dataclass
class Section:
    heading: Heading
    number: int | None      # None: not numbered
    closing: bool           # an unnumbered closing section (参考 / 附录 / 术语)


def sections(post: Post, conv: Conventions) -> list[Section]:
    """The post's `##` sections in order (computed once per post; the list is shared)."""
    return post.memo("sections", conv.fingerprint, lambda: _sections(post, conv))


def _sections(post: Post, conv: Conventions) -> list[Section]:
    out = []
    for h in post.body.headings:
        if h.level != 2:
            continue
        m = NUMBERED.match(h.text)
        num = from_chinese(m.group("num")) if m else None
        closing = num is None and h.text.startswith(conv.closing_sections)
        out.append(Section(h, num, closing))
    return out


def skeleton(post: Post, conv: Conventions) -> tuple[Heading | None, Table | None]:
    """The `## 零、本文骨架` heading and the first table of its section."""
    heads = [h for h in post.body.headings if h.level == 2]
    for i, h in enumerate(heads):
        if h.text.replace(" ", "") == conv.skeleton_heading:
            end = heads[i + 1].line if i + 1 < len(heads) else post.nlines + 1
            table = next((t for t in post.body.tables if h.line < t.start < end), None)
            return h, table
    return None, None
