#!/usr/bin/env python3
"""Check the register of sources (factcheck/sources.yml) against the fact-check tables
(factcheck/<slug>.md) and the posts' 参考资料 sections (series/**/*.md).

    python scripts/check_sources.py [--root DIR] [--today YYYY-MM-DD]

Prints one `path:line: message` per problem and exits 1 when there is any. The rules are
described in factcheck/README.md. Plain Python and PyYAML: no MkDocs, no network.
"""
from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

REGISTER = "factcheck/sources.yml"
FACTCHECK_DIR = "factcheck"
SERIES_DIR = "series"

KINDS = ("paper", "repo", "file", "doc", "blog", "model-card", "pr", "issue", "release", "dataset", "other")
READS = ("full-text", "abstract", "file", "page", "secondary")
REQUIRED = ("id", "kind", "title", "version", "read", "checked", "reachable", "posts")
OPTIONAL = ("url", "urls", "files", "abstract", "justification", "note")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
REFERENCES_HEADING = "参考资料"


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Entry:
    id: str
    line: int
    data: dict
    key_lines: dict = field(default_factory=dict)
    cited_in: set = field(default_factory=set)      # post slugs whose table or 参考资料 cite the entry

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


# ---------------------------------------------------------------------------------------------
# URLs

_SCHEME_RE = re.compile(r"^(?i:https?)://")
_ARXIV_PATH_RE = re.compile(r"^/(?:abs|pdf|html|format)/(.+?)(?:v\d+)?(?:\.pdf)?$")


def is_http(url: str) -> bool:
    return bool(_SCHEME_RE.match(url.strip()))


def normalize_url(url: str) -> str:
    """One spelling per address: no scheme (http = https), lowercase host without `www.` or a
    default port, no fragment, no trailing slash; arXiv abs/pdf/html and version suffixes fold
    to the bare id; GitHub owner/name are case-insensitive and may end in `.git`."""
    u = url.strip().strip("<>")
    m = re.match(r"^(?i:https?)://([^/?#]*)([^#]*)", u)
    if not m:                                         # a path in this repository
        u = u.split("#", 1)[0]
        while u.startswith("./"):
            u = u[2:]
        return u.rstrip("/")
    host = m.group(1).lower().rsplit("@", 1)[-1]
    host = re.sub(r":(80|443)$", "", host)
    if host.startswith("www."):
        host = host[4:]
    path, _, query = m.group(2).partition("?")
    path = path.rstrip("/")
    if host in ("arxiv.org", "export.arxiv.org"):
        host = "arxiv.org"
        am = _ARXIV_PATH_RE.match(path)
        if am:
            return f"arxiv.org/abs/{am.group(1)}"
    if host == "github.com":
        segs = path.split("/")
        if len(segs) > 1:
            segs[1] = segs[1].lower()
        if len(segs) > 2:
            segs[2] = segs[2].lower()
            if segs[2].endswith(".git"):
                segs[2] = segs[2][:-4]
        path = "/".join(segs)
    return host + path + ("?" + query if query else "")


# ---------------------------------------------------------------------------------------------
# The register


def _scalar_key(node) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def _duplicate_keys(node, out: list) -> None:
    if isinstance(node, yaml.MappingNode):
        seen = set()
        for k, v in node.value:
            key = _scalar_key(k)
            if key is not None and key in seen:
                out.append((k.start_mark.line + 1, key))
            seen.add(key)
            _duplicate_keys(v, out)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _duplicate_keys(item, out)


def _as_date(value) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def _nonempty_str(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


def load_register(root: Path, slugs: set, today: dt.date, problems: list) -> list[Entry] | None:
    """The register's entries, or None when it cannot be used (missing, not YAML, aliases,
    wrong shape): then the cross-checks that need it are skipped."""
    path = root / REGISTER

    def report(line: int, msg: str) -> None:
        problems.append(Problem(REGISTER, line, msg))

    if not path.is_file():
        report(1, "the register is missing")
        return None
    text = path.read_text(encoding="utf-8")
    try:
        aliases = [ev for ev in yaml.parse(text, Loader=yaml.SafeLoader)
                   if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None)]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        report(mark.line + 1 if mark else 1, f"not valid YAML: {getattr(exc, 'problem', None) or exc}")
        return None
    if aliases:
        for ev in aliases:
            what = f"alias *{ev.anchor}" if isinstance(ev, yaml.AliasEvent) else f"anchor &{ev.anchor}"
            report(ev.start_mark.line + 1, f"YAML {what}: the register has no anchors or aliases; write each entry out")
        return None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        report(mark.line + 1 if mark else 1, f"not valid YAML: {getattr(exc, 'problem', None) or exc}")
        return None
    dups: list = []
    _duplicate_keys(node, dups)
    for line, key in dups:
        report(line, f"duplicate key `{key}`")
    if not isinstance(data, dict) or set(data) != {"sources"} or not isinstance(node, yaml.MappingNode):
        report(1, 'the register must be a mapping with the single key `sources` ({"sources": [...]})')
        return None
    seq_node = next(v for k, v in node.value if _scalar_key(k) == "sources")
    items = data["sources"]
    if items is None:
        return []
    if not isinstance(items, list) or not isinstance(seq_node, yaml.SequenceNode):
        report(seq_node.start_mark.line + 1, "`sources` must be a list of entries")
        return None

    entries: list[Entry] = []
    ids: dict = {}
    urls_seen: dict = {}
    for item, inode in zip(items, seq_node.value):
        line = inode.start_mark.line + 1
        if not isinstance(item, dict) or not isinstance(inode, yaml.MappingNode):
            report(line, "entry is not a mapping")
            continue
        key_lines = {_scalar_key(k): k.start_mark.line + 1 for k, _ in inode.value}
        eid = item.get("id")
        entry = Entry(id=eid if isinstance(eid, str) else "", line=line, data=item, key_lines=key_lines)
        label = f"entry `{eid}`" if isinstance(eid, str) else "entry"

        def bad(key: str, msg: str, entry=entry, label=label) -> None:
            report(entry.line_of(key), f"{label}: {msg}")

        if "id" in item and isinstance(eid, str) and ID_RE.match(eid):
            if eid in ids:
                bad("id", f"id `{eid}` already used by the entry at line {ids[eid]}")
            else:
                ids[eid] = line
        check_fields(item, slugs, today, bad)
        check_addresses(root, item, bad, urls_seen, line)
        entries.append(entry)
    return entries


def check_fields(item: dict, slugs: set, today: dt.date, bad) -> None:
    """Required and known fields, and the values each may take."""
    for key in REQUIRED:
        if key not in item:
            bad(key, f"missing field `{key}`")
    for key in item:
        if key not in REQUIRED and key not in OPTIONAL:
            bad(key, f"unknown field `{key}` (fields: {', '.join(REQUIRED + OPTIONAL)})")
    eid = item.get("id")
    if "id" in item and (not isinstance(eid, str) or not ID_RE.match(eid)):
        bad("id", f"id {eid!r} must match {ID_RE.pattern}")
    if "kind" in item and item["kind"] not in KINDS:
        bad("kind", f"kind {item['kind']!r} is not one of {' | '.join(KINDS)}")
    if "title" in item and not _nonempty_str(item["title"]):
        bad("title", "title must be non-empty text")
    if "version" in item and (item["version"] is None or str(item["version"]).strip() == ""):
        bad("version", "version must say what was read (arXiv version, commit, tag or date)")
    if "read" in item and item["read"] not in READS:
        bad("read", f"read {item['read']!r} is not one of {' | '.join(READS)}")
    if item.get("read") == "abstract" and not _nonempty_str(item.get("abstract")):
        bad("read", "read: abstract needs the abstract's words in `abstract:`")
    if "checked" in item:
        d = _as_date(item["checked"])
        if d is None:
            bad("checked", f"checked {item['checked']!r} is not an ISO date (YYYY-MM-DD)")
        elif d > today:
            bad("checked", f"checked {d.isoformat()} is after today ({today.isoformat()})")
    if "reachable" in item and not isinstance(item["reachable"], bool):
        bad("reachable", f"reachable must be true or false, not {item['reachable']!r}")
    if "posts" in item:
        posts = item["posts"]
        if not isinstance(posts, list) or not all(isinstance(p, str) for p in posts):
            bad("posts", "posts must be a list of post slugs")
        else:
            for p in posts:
                if p not in slugs:
                    bad("posts", f"posts names `{p}`, which is not the slug of a post")
            for p in sorted({p for p in posts if posts.count(p) > 1}):
                bad("posts", f"posts lists `{p}` twice")
    if "files" in item and (not isinstance(item["files"], list) or not all(_nonempty_str(f) for f in item["files"])):
        bad("files", "files must be a list of paths")


def check_addresses(root: Path, item: dict, bad, urls_seen: dict, line: int) -> None:
    """`url` (or a `justification`), `urls`; no address may belong to two entries."""
    addresses = []
    if "url" in item:
        if not _nonempty_str(item["url"]):
            bad("url", "url must be an address")
        else:
            addresses.append(item["url"].strip())
    elif not _nonempty_str(item.get("justification")):
        bad("id", "no `url`: give the address, or say in `justification` why there is none")
    if "urls" in item:
        if not isinstance(item["urls"], list) or not all(_nonempty_str(u) for u in item["urls"]):
            bad("urls", "urls must be a list of addresses")
        else:
            addresses.extend(u.strip() for u in item["urls"])
    own = set()
    for addr in addresses:
        key = "url" if addr == str(item.get("url", "")).strip() else "urls"
        if not is_http(addr):
            if re.match(r"^[a-z][a-z0-9+.-]*:", addr, re.I) or addr.startswith("/"):
                bad(key, f"`{addr}` is neither an http(s) address nor a path in this repository")
            elif not (root / addr.split("#", 1)[0]).exists():
                bad(key, f"`{addr}` is not an http(s) address and no such path exists in this repository")
        norm = normalize_url(addr)
        if norm in own:                 # the same paper's PDF beside its abstract page: one source
            continue
        own.add(norm)
        if norm in urls_seen:
            other_id, other_line = urls_seen[norm]
            bad(key, f"`{addr}` is already registered by `{other_id}` (line {other_line}): one entry per source")
        else:
            urls_seen[norm] = (item.get("id"), line)


# ---------------------------------------------------------------------------------------------
# Markdown helpers

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
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells = re.split(r"(?<!\\)\|", s)
    return [c.strip().replace("\\|", "|") for c in cells]


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


def _header_name(cell: str) -> str:
    return re.sub(r"[*_`]", "", cell).strip().lower()


_QUOTE_RE = re.compile(r'"([^"\n]+)"|“([^”\n]+)”')


def quotes(text: str) -> list[str]:
    return [a or b for a, b in _QUOTE_RE.findall(text)]


# ---------------------------------------------------------------------------------------------
# The sources cell

_SRC_RE = re.compile(r"`?src:([A-Za-z0-9][A-Za-z0-9._-]*)`?")
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
    found += [("URL", m.group(0).rstrip(").,;:")) for m in _HOST_PATH_RE.finditer(_CODE_SPAN_RE.sub(" ", bare))]
    bare = _HOST_PATH_RE.sub(" ", bare)
    for what, rx in (("arXiv id", _ARXIV_RE), ("commit hash", _HASH_RE)):
        found += [(what, m.group(0)) for m in rx.finditer(bare)]
        bare = rx.sub(" ", bare)
    found += [("version label", m.group(0)) for m in _AT_HASH_RE.finditer(bare)]
    # `v2` counts outside code spans (inside, `v1` is part of a path or an identifier)
    found += [("version label", m.group(0)) for m in _VERSION_RE.finditer(_CODE_SPAN_RE.sub(" ", bare))]
    return found


def parse_sources_cell(cell: str) -> SourcesCell:
    res = SourcesCell([], [], [], [])
    i, n = 0, len(cell)
    while i < n:
        ch = cell[i]
        if ch.isspace() or ch in _SEPARATORS:
            i += 1
            continue
        m = _SRC_RE.match(cell, i)
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


# ---------------------------------------------------------------------------------------------
# Posts


@dataclass
class Post:
    slug: str
    path: Path
    rel: str
    text: str


def find_posts(root: Path) -> list[Post]:
    posts = []
    base = root / SERIES_DIR
    if not base.is_dir():
        return posts
    for p in sorted(base.rglob("*.md")):
        if "assets" in p.relative_to(base).parts:
            continue
        text = p.read_text(encoding="utf-8")
        slug = p.stem
        m = re.match(r"^---\s*\n(.*?)\n---\s*(\n|$)", text, re.S)
        if m:
            try:
                fm = yaml.safe_load(m.group(1))
            except yaml.YAMLError:
                fm = None
            if isinstance(fm, dict) and isinstance(fm.get("slug"), str) and fm["slug"].strip():
                slug = fm["slug"].strip()
        posts.append(Post(slug, p, p.relative_to(root).as_posix(), text))
    return posts


_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
_INLINE_LINK_RE = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
_REF_LINK_RE = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\[([^\]]*)\]")
_AUTOLINK_RE = re.compile(r"<((?i:https?)://[^>\s]+)>")
_BARE_URL_RE = re.compile(r"(?i)\bhttps?://[^\s<>\]\[\"'`]+")
_REF_DEF_RE = re.compile(r"^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s.*)?$")


def _strip_bare(url: str) -> str:
    url = url.rstrip(".,;:!?。，；：！？、）")
    while url.endswith(")") and url.count(")") > url.count("("):
        url = url[:-1]
    return url


def links(text: str, refdefs: dict) -> list[str]:
    """Link targets in a piece of Markdown: inline, reference-style, autolinks, bare URLs (not
    inside code spans)."""
    text = _CODE_SPAN_RE.sub(lambda m: "code", text)
    out = []

    def inline(m):
        out.append(m.group(1))
        return " "
    text = _INLINE_LINK_RE.sub(inline, text)

    def ref(m):
        label = (m.group(2) or m.group(1)).strip().lower()
        if label in refdefs:
            out.append(refdefs[label])
        return " "
    text = _REF_LINK_RE.sub(ref, text)
    for label, target in refdefs.items():
        if re.search(r"\[" + re.escape(label) + r"\](?![\[(:])", text, re.I):
            out.append(target)

    def auto(m):
        out.append(m.group(1))
        return " "
    text = _AUTOLINK_RE.sub(auto, text)
    out.extend(_strip_bare(u) for u in _BARE_URL_RE.findall(text))
    return out


def reference_items(post: Post):
    """The 参考资料 section's blocks: (line, text, is_list_item) for each top-level list item
    (with its continuation lines and sub-items) and each other paragraph."""
    lines = list(unfenced_lines(post.text))
    start = None
    for idx, (no, line) in enumerate(lines):
        if re.match(r"^##\s+" + REFERENCES_HEADING, line):
            start = idx + 1
            break
    if start is None:
        return None
    blocks = []
    cur = None
    prev_no = None
    for no, line in lines[start:]:
        if re.match(r"^#{1,2}\s", line):
            break
        if prev_no is not None and no != prev_no + 1:
            cur = None                       # a fenced block sat between: ends the paragraph
        prev_no = no
        if not line.strip():
            if cur is not None and not cur[2]:
                cur = None
            elif cur is not None:
                cur[3] = True                # a blank line inside a list item
            continue
        m = re.match(r"^( {0,1})([-*+]|\d+[.)])\s+", line)
        if m:
            cur = [no, line, True, False]
            blocks.append(cur)
        elif cur is not None and (line.startswith((" ", "\t")) or not cur[3]):
            cur[1] += "\n" + line
        else:
            cur = [no, line, False, False]
            blocks.append(cur)
    return [(b[0], b[1], b[2]) for b in blocks]


def reference_definitions(text: str) -> dict:
    defs = {}
    for _, line in unfenced_lines(text):
        m = _REF_DEF_RE.match(line)
        if m:
            defs.setdefault(m.group(1).strip().lower(), m.group(2))
    return defs


# ---------------------------------------------------------------------------------------------
# The check


def check(root: Path, today: dt.date | None = None) -> list[Problem]:
    root = Path(root)
    today = today or dt.date.today()
    problems: list[Problem] = []
    posts = find_posts(root)
    slugs = {p.slug for p in posts}
    entries = load_register(root, slugs, today, problems)
    by_id = {e.id: e for e in entries} if entries is not None else None
    by_url: dict = {}
    rel_urls: list = []              # (path prefix, entry) for repository paths
    if entries is not None:
        for e in entries:
            addrs = []
            if _nonempty_str(e.data.get("url")):
                addrs.append(e.data["url"])
            if isinstance(e.data.get("urls"), list):
                addrs.extend(u for u in e.data["urls"] if _nonempty_str(u))
            for a in addrs:
                by_url.setdefault(normalize_url(a), e)
                if not is_http(a):
                    rel_urls.append((normalize_url(a), e))

    check_factcheck_files(root, slugs, by_id, problems)
    for post in posts:
        check_references(post, by_id, by_url, rel_urls, problems)

    if entries is not None:
        for e in entries:
            if not e.id:
                continue
            if not e.cited_in:
                problems.append(Problem(REGISTER, e.line,
                                        f"entry `{e.id}` is cited by no fact-check table row and no 参考资料 link"))
                continue
            posts_field = e.data.get("posts")
            if not isinstance(posts_field, list):
                continue
            listed = {p for p in posts_field if isinstance(p, str)}
            for s in sorted(e.cited_in - listed):
                problems.append(Problem(REGISTER, e.line_of("posts"),
                                        f"entry `{e.id}`: cited for `{s}`, but its posts list does not name it"))
            for s in sorted(listed - e.cited_in):
                if s in slugs:
                    problems.append(Problem(REGISTER, e.line_of("posts"),
                                            f"entry `{e.id}`: posts names `{s}`, but neither factcheck/{s}.md "
                                            f"nor that post's 参考资料 cites it"))
    return sorted(set(problems))


def check_factcheck_files(root: Path, slugs: set, by_id: dict | None, problems: list) -> None:
    base = root / FACTCHECK_DIR
    if not base.is_dir():
        return
    for path in sorted(base.glob("*.md")):
        if path.name.lower() == "readme.md":
            continue
        rel = path.relative_to(root).as_posix()
        slug = path.stem
        text = path.read_text(encoding="utf-8")
        if slug not in slugs:
            problems.append(Problem(rel, 1, f"no post has the slug `{slug}`"))
        ts = tables(text)
        if not ts:
            problems.append(Problem(rel, 1, "no fact-check table"))
        table_lines = set()
        for t in ts:
            table_lines.add(t.line)
            table_lines.update(no for no, _ in t.rows)
            names = [_header_name(c) for c in t.header]
            if "sources" not in names or "verdict" not in names:
                missing = " and ".join(f"`{c}`" for c in ("sources", "verdict") if c not in names)
                problems.append(Problem(rel, t.line, f"table not migrated: its header has no {missing} column "
                                        f"(header: {' | '.join(t.header)}); use | claim (file:line) | sources | verdict |"))
                continue
            si, vi = names.index("sources"), names.index("verdict")
            for no, cells in t.rows:
                if len(cells) != len(names):
                    problems.append(Problem(rel, no, f"row has {len(cells)} cells, the header {len(names)} "
                                            f"(an unescaped | in a cell?)"))
                    if max(si, vi) >= len(cells):
                        continue
                check_row(rel, no, cells, si, vi, slug, by_id, problems)
        # src: tokens in prose must be registered too
        if by_id is not None:
            for no, line in unfenced_lines(text):
                if no in table_lines:
                    continue
                for m in _SRC_RE.finditer(line):
                    ident = m.group(1).rstrip(".-")
                    if ident not in by_id:
                        problems.append(Problem(rel, no, f"src:{ident} is not registered in {REGISTER}"))


def check_row(rel, no, cells, si, vi, slug, by_id, problems) -> None:
    cell = parse_sources_cell(cells[si])
    if not cell.ids:
        problems.append(Problem(rel, no, "sources cell cites no src:ID"))
    for stray in cell.stray:
        problems.append(Problem(rel, no, f"sources cell: text outside src:ID tokens, their (locators) and "
                                f"quotes: {stray[:80]!r}"))
    for what, value in cell.described:
        problems.append(Problem(rel, no, f"sources cell: {what} `{value[:60]}` (the register says which "
                                f"version was read; cite src:ID only)"))
    if by_id is None:
        return
    for k, other in enumerate(cells):
        if k != si:
            for m in _SRC_RE.finditer(other):
                ident = m.group(1).rstrip(".-")
                if ident not in by_id:
                    problems.append(Problem(rel, no, f"src:{ident} is not registered in {REGISTER}"))
    cited = []
    for ident in cell.ids:
        e = by_id.get(ident)
        if e is None:
            problems.append(Problem(rel, no, f"src:{ident} is not registered in {REGISTER}"))
        else:
            e.cited_in.add(slug)
            cited.append(e)
    if not cited or len(cited) != len(cell.ids):
        return
    verdict = re.sub(r"^[\s*_`]+", "", cells[vi]).lower()
    if not verdict.startswith("right"):
        return
    if all(e.data.get("reachable") is False for e in cited):
        problems.append(Problem(rel, no, "verdict `right` rests only on sources with reachable: false ("
                                + ", ".join(f"src:{e.id}" for e in cited) + ")"))
    if all(e.data.get("read") == "abstract" for e in cited):
        qs = []
        for k, c in enumerate(cells):
            if k != vi:
                qs.extend(quotes(c))
        abstracts = [e.data.get("abstract") for e in cited if _nonempty_str(e.data.get("abstract"))]
        if not any(quote_in(q, a) for q in qs for a in abstracts):
            ids = ", ".join(f"src:{e.id}" for e in cited)
            if not qs:
                msg = f"verdict `right` rests only on abstracts ({ids}): quote the supporting words in \"...\""
            else:
                msg = (f"verdict `right` rests only on abstracts ({ids}): no quoted text occurs verbatim in "
                       f"their `abstract:`")
            problems.append(Problem(rel, no, msg))


def check_references(post: Post, by_id, by_url, rel_urls, problems) -> None:
    items = reference_items(post)
    if items is None:
        return
    defs = reference_definitions(post.text)
    for no, text, is_item in items:
        targets = links(text, defs)
        http = [t for t in targets if is_http(t)]
        internal = [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I)]
        if by_id is None:
            continue
        ok = False
        for url in http:
            e = by_url.get(normalize_url(url))
            if e is None:
                problems.append(Problem(post.rel, no, f"参考资料 link {url} is not the url or in the urls of "
                                        f"any entry of {REGISTER}"))
            else:
                e.cited_in.add(post.slug)
                ok = True
        named = named_entries(text, by_id, rel_urls)
        for e in named:
            e.cited_in.add(post.slug)
        if is_item and not ok and not http and not named and not internal:
            problems.append(Problem(post.rel, no, "参考资料 item has no registered link and names no registered "
                                    "id or repository path"))


def named_entries(text: str, by_id: dict, rel_urls: list) -> list[Entry]:
    found = []
    for m in re.finditer(r"(?<![A-Za-z0-9._/-])([a-z0-9][a-z0-9._-]*[a-z0-9])(?![A-Za-z0-9_/-])", text):
        tok = m.group(1)
        if tok.startswith("src:"):
            tok = tok[4:]
        if tok in by_id and ("-" in tok or "." in tok) and by_id[tok] not in found:
            found.append(by_id[tok])
    for m in re.finditer(r"src:([a-z0-9][a-z0-9._-]*)", text):
        tok = m.group(1).rstrip(".-")
        if tok in by_id and by_id[tok] not in found:
            found.append(by_id[tok])
    paths = re.findall(r"[A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*|[A-Za-z0-9_-]+\.[A-Za-z0-9]+", _CODE_SPAN_RE.sub(
        lambda m: " " + m.group(2) + " ", text))
    for p in paths:
        p = normalize_url(p)
        for prefix, e in rel_urls:
            if prefix and (p == prefix or p.startswith(prefix + "/")) and e not in found:
                found.append(e)
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--today", type=dt.date.fromisoformat, default=None, help="YYYY-MM-DD (default: the system date)")
    args = ap.parse_args(argv)
    problems = check(args.root, args.today)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
