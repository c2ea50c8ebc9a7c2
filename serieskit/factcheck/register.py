"""The register of sources (factcheck/sources.yml): its entries, each field checked, and one
spelling per address (`normalize_url`)."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from serieskit import yamlsafe

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


def nonempty_str(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


def read_text(path: Path, rel: str, problems: list, keep_going: bool = False) -> str | None:
    """A file's text (UTF-8, a byte-order mark dropped). A file that is not UTF-8 is a problem at the
    line of its first wrong byte; then None, or with `keep_going` the text with that byte replaced
    (the rest is still checked). A file that cannot be read is a problem, and None."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(Problem(rel, 1, f"cannot read the file: {exc.strerror or exc}"))
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(Problem(rel, data[:exc.start].count(b"\n") + 1,
                                f"not valid UTF-8 ({exc.reason} at byte {exc.start}): save the file as UTF-8"))
        return data.decode("utf-8-sig", errors="replace") if keep_going else None


def load_register(root: Path, slugs: set, today: dt.date, problems: list) -> list[Entry] | None:
    """The register's entries, or None when it cannot be used (missing, not YAML, aliases,
    wrong shape): then the cross-checks that need it are skipped."""
    path = root / REGISTER

    def report(line: int, msg: str) -> None:
        problems.append(Problem(REGISTER, line, msg))

    if not path.is_file():
        report(1, "the register is missing")
        return None
    text = read_text(path, REGISTER, problems)
    if text is None:
        return None
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
        # no aliases (refused above) and nested at most yamlsafe.MAX_DEPTH levels (a RecursionError else)
        node = yamlsafe.Loader(text).get_single_node()
        data = yamlsafe.safe_load(text)
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
    if "title" in item and not nonempty_str(item["title"]):
        bad("title", "title must be non-empty text")
    if "version" in item and (item["version"] is None or str(item["version"]).strip() == ""):
        bad("version", "version must say what was read (arXiv version, commit, tag or date)")
    if "read" in item and item["read"] not in READS:
        bad("read", f"read {item['read']!r} is not one of {' | '.join(READS)}")
    if item.get("read") == "abstract" and not nonempty_str(item.get("abstract")):
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
    if "files" in item and (not isinstance(item["files"], list) or not all(nonempty_str(f) for f in item["files"])):
        bad("files", "files must be a list of paths")


def check_addresses(root: Path, item: dict, bad, urls_seen: dict, line: int) -> None:
    """`url` (or a `justification`), `urls`; no address may belong to two entries."""
    addresses = []
    if "url" in item:
        if not nonempty_str(item["url"]):
            bad("url", "url must be an address")
        else:
            addresses.append(item["url"].strip())
    elif not nonempty_str(item.get("justification")):
        bad("id", "no `url`: give the address, or say in `justification` why there is none")
    if "urls" in item:
        if not isinstance(item["urls"], list) or not all(nonempty_str(u) for u in item["urls"]):
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
