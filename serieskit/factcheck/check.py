"""The check: the register against the fact-check tables and the posts' 参考资料 sections, one
`Problem` per disagreement."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from .posts import Post, find_posts, links, reference_definitions, reference_items
from .register import (FACTCHECK_DIR, REGISTER, Entry, Problem, nonempty_str, is_http, load_register,
                       normalize_url, read_text)
from .tables import (CODE_SPAN_RE, SRC_RE, header_name, parse_sources_cell, quote_in, quotes, tables,
                     unfenced_lines)

# ---------------------------------------------------------------------------------------------
# The check


def check(root: Path, today: dt.date | None = None) -> list[Problem]:
    root = Path(root)
    today = today or dt.date.today()
    problems: list[Problem] = []
    posts = find_posts(root, problems)
    slugs = {p.slug for p in posts}
    entries = load_register(root, slugs, today, problems)
    by_id = {e.id: e for e in entries} if entries is not None else None
    by_url: dict = {}
    rel_urls: list = []              # (path prefix, entry) for repository paths
    if entries is not None:
        for e in entries:
            addrs = []
            if nonempty_str(e.data.get("url")):
                addrs.append(e.data["url"])
            if isinstance(e.data.get("urls"), list):
                addrs.extend(u for u in e.data["urls"] if nonempty_str(u))
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
        text = read_text(path, rel, problems)
        if text is None:
            continue
        if slug not in slugs:
            problems.append(Problem(rel, 1, f"no post has the slug `{slug}`"))
        ts = tables(text)
        if not ts:
            problems.append(Problem(rel, 1, "no fact-check table"))
        table_lines = set()
        for t in ts:
            table_lines.add(t.line)
            table_lines.update(no for no, _ in t.rows)
            names = [header_name(c) for c in t.header]
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
                for m in SRC_RE.finditer(line):
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
            for m in SRC_RE.finditer(other):
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
        abstracts = [e.data.get("abstract") for e in cited if nonempty_str(e.data.get("abstract"))]
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
    paths = re.findall(r"[A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*|[A-Za-z0-9_-]+\.[A-Za-z0-9]+", CODE_SPAN_RE.sub(
        lambda m: " " + m.group(2) + " ", text))
    for p in paths:
        p = normalize_url(p)
        for prefix, e in rel_urls:
            if prefix and (p == prefix or p.startswith(prefix + "/")) and e not in found:
                found.append(e)
    return found
