"""The fact-check tables (factcheck/<slug>.md) as the check reads them: the lines outside fenced
code, the tables, the quotes, and a row's sources cell."""
from __future__ import annotations

import re
from dataclasses import dataclass

from serieskit.parse.inline import split_cells

# ---------------------------------------------------------------------------------------------
# Markdown helpers

CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def unfenced_lines(text: str):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for no, line in enumerate(text.splitlines(), 1):
        m = _FENCE_RE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)[0] * len(m.group(1))
                continue
            yield no, line
        elif m and m.group(1).startswith(fence) and line.strip() == m.group(1):
            fence = None


_DELIM_RE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def split_row(line: str) -> list[str]:
    """A table row's cells as the post parser splits them (an escaped `|` is one), unescaped."""
    return [c.replace("\\|", "|") for c in split_cells(line)]


@dataclass
class Table:
    line: int
    header: list
    rows: list          # (line, cells)


def tables(text: str) -> list[Table]:
    lines = list(unfenced_lines(text))
    out = []
    i = 0
    while i < len(lines) - 1:
        no, line = lines[i]
        nxt_no, nxt = lines[i + 1]
        if "|" in line and nxt_no == no + 1 and "-" in nxt and _DELIM_RE.match(nxt):
            t = Table(no, [c.lower() for c in split_row(line)], [])
            j = i + 2
            while j < len(lines) and lines[j][0] == lines[j - 1][0] + 1 and lines[j][1].strip() and "|" in lines[j][1]:
                t.rows.append((lines[j][0], split_row(lines[j][1])))
                j += 1
            out.append(t)
            i = j
        else:
            i += 1
    return out


def header_name(cell: str) -> str:
    return re.sub(r"[*_`]", "", cell).strip().lower()


_QUOTE_RE = re.compile(r'"([^"\n]+)"|“([^”\n]+)”')


def quotes(text: str) -> list[str]:
    return [a or b for a, b in _QUOTE_RE.findall(text)]


# ---------------------------------------------------------------------------------------------
# The sources cell

SRC_RE = re.compile(r"`?src:([A-Za-z0-9][A-Za-z0-9._-]*)`?")
_SEPARATORS = ",;+·、，；"
_HASH_RE = re.compile(r"(?<![0-9A-Za-z_./-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z_-])")
_ARXIV_RE = re.compile(r"(?<![\d.])\d{4}\.\d{4,5}(?:v\d+)?(?![\d.])")
# a version label: an arXiv-style `v2` standing as a word (not `v0.7.1`, `vllm/v1/`, `use_v1`,
# `DeepSeek-V4`), or `@` and a commit-like hex (`@abc12`); release tags are not labels of this kind
_VERSION_RE = re.compile(r"(?<![\w./@-])v\d+(?![\w/@-]|\.\d)")
_AT_HASH_RE = re.compile(r"@(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{4,40}(?![\w-])")
_URL_RE = re.compile(r"(?i)\bhttps?://[^\s`]+|\bwww\.[^\s`]+")
_HOST_PATH_RE = re.compile(r"(?i)\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|ai|dev|edu|gov|cn|co|me|app|site|so|info)/[^\s`]*")


@dataclass
class SourcesCell:
    ids: list            # the ids, in order
    quotes: list         # quoted text outside the locators
    stray: list          # text that is none of the allowed forms
    described: list      # (what, text): a commit hash, arXiv id, URL or version label outside the id form


def _balanced(text: str, i: int) -> int:
    """Index just after the parenthesised group opening at text[i], or -1."""
    pairs = {"(": ")", "（": "）"}
    stack = []
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "`":
            k = text.find("`", j + 1)
            if k == -1:
                return -1
            j = k + 1
            continue
        if ch in '"“':                     # a quoted passage may hold a parenthesis of its own
            k = text.find('"' if ch == '"' else "”", j + 1)
            if k != -1:
                j = k + 1
                continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
            if not stack:
                return j + 1
        j += 1
    return -1


def _descriptions(text: str) -> list:
    """Commit hashes, arXiv ids, URLs and version labels in text, outside quoted passages."""
    bare = _QUOTE_RE.sub(" ", text)
    found = [("URL", m.group(0).rstrip(").,;:")) for m in _URL_RE.finditer(bare)]
    bare = _URL_RE.sub(" ", bare)
    # an address without a scheme counts outside code spans (inside, `host/path` is a search pattern)
    found += [("URL", m.group(0).rstrip(").,;:")) for m in _HOST_PATH_RE.finditer(CODE_SPAN_RE.sub(" ", bare))]
    bare = _HOST_PATH_RE.sub(" ", bare)
    for what, rx in (("arXiv id", _ARXIV_RE), ("commit hash", _HASH_RE)):
        found += [(what, m.group(0)) for m in rx.finditer(bare)]
        bare = rx.sub(" ", bare)
    found += [("version label", m.group(0)) for m in _AT_HASH_RE.finditer(bare)]
    # `v2` counts outside code spans (inside, `v1` is part of a path or an identifier)
    found += [("version label", m.group(0)) for m in _VERSION_RE.finditer(CODE_SPAN_RE.sub(" ", bare))]
    return found


def parse_sources_cell(cell: str) -> SourcesCell:
    res = SourcesCell([], [], [], [])
    i, n = 0, len(cell)
    while i < n:
        ch = cell[i]
        if ch.isspace() or ch in _SEPARATORS:
            i += 1
            continue
        m = SRC_RE.match(cell, i)
        if m:
            ident = m.group(1).rstrip(".-")
            res.ids.append(ident)
            i = m.start(1) + len(ident)
            if i < n and cell[i] == "`":
                i += 1
            j = i
            while j < n and cell[j] == " ":
                j += 1
            if j < n and cell[j] in "(（":
                end = _balanced(cell, j)
                if end == -1:
                    res.stray.append(cell[j:])
                    break
                res.described.extend(_descriptions(cell[j:end]))
                i = end
            continue
        qm = _QUOTE_RE.match(cell, i)
        if qm:
            res.quotes.append(qm.group(1) or qm.group(2))
            i = qm.end()
            continue
        # stray text up to the next token
        j = i
        while j < n and not (cell.startswith("src:", j) or cell.startswith("`src:", j) or cell[j] in '"“'
                             or cell[j] in _SEPARATORS):
            j += 1
        j = max(j, i + 1)
        stray = cell[i:j].strip()
        if stray:
            res.stray.append(stray)
            res.described.extend(_descriptions(stray))
        i = j
    return res


def _norm_words(text: str) -> str:
    text = text.replace("`", "").replace("’", "'").replace("‘", "'")
    return re.sub(r"\s+", " ", text).strip().lower()


def quote_in(quote: str, abstract: str) -> bool:
    """The quote occurs verbatim (whitespace-normalised, case-insensitive) in the abstract; an
    ellipsis (… or ...) joins fragments that must occur in that order."""
    hay = _norm_words(abstract)
    frags = [_norm_words(f) for f in re.split(r"…|\.\.\.|\[\s*\.\.\.\s*\]|\[…\]", quote)]
    frags = [f for f in frags if f]
    if not frags or sum(len(f.split()) for f in frags) < 2:
        return False
    pos = 0
    for f in frags:
        k = hay.find(f, pos)
        if k == -1:
            return False
        pos = k + len(f)
    return True
