"""The prose of a post: its text without what is not prose (code, comments, math, links and images,
raw HTML, URLs, attribute lists), with the author's columns. The glossary tooltips (serieskit/render/post.py) and
the typography and terminology rules (rules/typ*, rules/trm*) read the same prose."""
from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from collections.abc import Iterator

import ahocorasick

from .lead import sister_line
from serieskit.model.site import Post

REFERENCES = "参考资料"
BLANKS = re.compile(r" +")

INLINE_MATH = re.compile(r"(?<!\\)\$(?!\s)[^$\n]+?(?<![\s\\])\$|\\\(.+?\\\)")
RAW_TAG = re.compile(r"<[^<>\n]+>")
# a bare URL ends at white space, markup quotes or Chinese text (full-width marks included)
URL = re.compile(r"https?://[^\s<>\"'\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
ATTRS = re.compile(r"\{[:#.][^{}\n]*\}|\[\^[^\]]+\]")


def eligible(post: Post, n: int, spans: dict[int, list[tuple[int, int]]] | None = None) -> str:
    """The line's prose with links, images, raw HTML, math, URLs and attribute lists blanked out.

    `spans`: the (start, end) columns of the post's links and images by line (see `_link_spans`).
    """
    text = post.prose(n)
    if not text.strip():
        return ""
    if spans is None:
        spans = link_spans(post)
    cuts = [(a - 1, b - 1) for a, b in spans.get(n, ())]
    if "$" in text or "\\(" in text:
        cuts += [m.span() for m in INLINE_MATH.finditer(text)]
    if "<" in text:
        cuts += [m.span() for m in RAW_TAG.finditer(text)]
    if "http" in text:
        cuts += [m.span() for m in URL.finditer(text)]
    if "{" in text or "[^" in text:
        cuts += [m.span() for m in ATTRS.finditer(text)]
    if not cuts:
        return text
    chars = list(text)
    for a, b in cuts:
        for i in range(max(a, 0), min(b, len(chars))):
            chars[i] = " "
    return "".join(chars)


def link_spans(post: Post) -> dict[int, list[tuple[int, int]]]:
    spans: dict[int, list[tuple[int, int]]] = {}
    for link in post.body.links:
        spans.setdefault(link.line, []).append((link.col, link.end_col))
    for img in post.body.images:
        spans.setdefault(img.line, []).append((img.col, img.close_col))
    return spans


def display_math_lines(post: Post) -> set[int]:
    """The lines of display math (`$$` ... `$$`, the delimiters included) outside code."""
    out: set[int] = set()
    in_code = post.body.in_code
    opened = 0          # the line of the `$$` that opened the block we are in (0: not in one)
    for n, line in enumerate(post.lines[post.body_start - 1:], post.body_start):
        if "$$" not in line or n in in_code:
            continue
        s = line.strip()
        if not s.startswith("$$"):
            continue
        out.add(n)
        if not (s != "$$" and s.endswith("$$") and len(s) > 4):
            if opened:
                out.update(k for k in range(opened + 1, n) if k not in in_code)
                opened = 0
            else:
                opened = n
    if opened:
        out.update(k for k in range(opened + 1, post.nlines + 1) if k not in in_code)
    return out


def _context(post: Post):
    return post.memo("prose-context", None, lambda: (link_spans(post), display_math_lines(post)))


def line_segments(post: Post, n: int) -> list[tuple[int, str]]:
    """The runs of prose on line `n`, between the parts that are not prose: (1-based column of the
    first character, text). Display math, code and comments give none."""
    def compute():
        spans, math = _context(post)
        if n in post.body.in_code or n in math or n < post.body_start:
            return []
        text = eligible(post, n, spans)
        if not text.strip():
            return []
        raw, out, start = post.line(n), [], 0
        for m in BLANKS.finditer(text):          # a run of blanks that the line did not have: not prose
            a, b = m.span()
            if raw[a:b] != text[a:b]:
                if text[start:a].strip():
                    out.append((start + 1, text[start:a]))
                start = b
        if text[start:].strip():
            out.append((start + 1, text[start:]))
        return out
    return post.memo("prose-line", n, compute)


def candidate_lines(post: Post, pattern: re.Pattern) -> list[int]:
    """The body lines whose raw text `pattern` (a pattern that matches within a line) matches
    somewhere: the only lines a rule that looks for `pattern` in prose needs to read. One search
    over the body, which goes on from the next line after each match."""
    starts = post.memo("line-starts", None, lambda: _line_starts(post))
    if post.body_start > len(starts):
        return []
    found: list[int] = []
    m = pattern.search(post.text, starts[post.body_start - 1])
    while m is not None:
        n = bisect.bisect_right(starts, m.start())
        found.append(n)
        if n >= len(starts):
            break
        m = pattern.search(post.text, starts[n])
    return found


def word_positions(post: Post, words: frozenset[str]) -> list[int]:
    """The offsets in the post's text where one of `words` (lower case, Latin) starts a word, in
    any case: one pass of an Aho–Corasick automaton over the lower-cased text finds every word at
    once (a search for each word would read the whole text once a word)."""
    if not words:
        return []
    low = post.memo("lower-text", None, lambda: _lower(post.text))
    found = []
    for end, size in _automaton(words).iter(low):
        k = end - size + 1
        if k == 0 or not (low[k - 1].isascii() and (low[k - 1].isalnum() or low[k - 1] == "_")):
            found.append(k)
    return sorted(found)


def _lower(text: str) -> str:
    """`text` in lower case, each character where it was (`İ` lowers to two characters: it stays)."""
    low = text.lower()
    return low if len(low) == len(text) else "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@functools.lru_cache(maxsize=16)
def _automaton(words: frozenset[str]) -> ahocorasick.Automaton:
    """The automaton that finds each of `words` (its value: the word's length), one per glossary."""
    automaton = ahocorasick.Automaton()
    for w in words:
        automaton.add_word(w, len(w))
    automaton.make_automaton()
    return automaton


def line_col(post: Post, offset: int) -> tuple[int, int]:
    """The line and 1-based column of an offset in the post's text."""
    starts = post.memo("line-starts", None, lambda: _line_starts(post))
    n = bisect.bisect_right(starts, offset)
    return n, offset - starts[n - 1] + 1


def _line_starts(post: Post) -> list[int]:
    starts = list(itertools.accumulate(map(operator.add, map(len, post.lines), map(len, post.endings)), initial=0))
    starts.pop()
    return starts


def segments(post: Post, pattern: re.Pattern | None = None) -> Iterator[tuple[int, int, str]]:
    """Each run of prose, (line, column, text), in order: on every body line, or only on the lines
    whose raw text `pattern` matches."""
    lines = candidate_lines(post, pattern) if pattern is not None else range(post.body_start, post.nlines + 1)
    for n in lines:
        for col, text in line_segments(post, n):
            yield n, col, text


def paragraphs_around(post: Post, lines: list[int]) -> Iterator[list[tuple[int, int, str]]]:
    """The paragraphs of prose (runs of consecutive lines with prose) that hold one of `lines`
    (ascending), each as its segments in order."""
    done = -1
    for n in lines:
        if n <= done or not line_segments(post, n):
            continue
        first = n
        while first - 1 >= post.body_start and line_segments(post, first - 1):
            first -= 1
        last = n
        while last + 1 <= post.nlines and line_segments(post, last + 1):
            last += 1
        done = last
        yield [(k, col, text) for k in range(first, last + 1) for col, text in line_segments(post, k)]


def cited_lines(post, conv) -> set[int]:
    """Lines where names are cited, not written: the sister line (the titles of other posts and of
    planned ones, as their manifests spell them) and the 参考资料 section."""
    out: set[int] = set()
    sl = sister_line(post, conv)
    if sl is not None:
        out.add(sl.line)
    heads = post.body.headings
    for k, h in enumerate(heads):
        if REFERENCES in h.text:
            end = next((x.line for x in heads[k + 1:] if x.level <= h.level), post.nlines + 1)
            out.update(range(h.line, end))
    return out


def own_prose(post: Post, conv, pattern: re.Pattern) -> Iterator[tuple[int, int, str]]:
    """`segments(post, pattern)` without the lines that quote others' titles as written (the
    sister line, 参考资料): the prose the author's own typography rules read."""
    skip = cited_lines(post, conv)
    return (seg for seg in segments(post, pattern) if seg[0] not in skip)
