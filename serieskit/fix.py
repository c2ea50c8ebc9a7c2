"""Apply the fixes that findings carry: edits applied bottom-up per file, each file written
atomically (temporary file in the same folder, fsync, rename), nothing else changed byte for byte.
"""
from __future__ import annotations

import difflib
import os
import tempfile
from pathlib import Path

from .model import Edit, Finding, Post


MAX_FIX_ROUNDS = 5   # a fix can reveal another (the CLI and the editor's "fix all" run this many rounds at most)


def applicable(edits: list[Edit], nlines: int) -> list[Edit]:
    """The edits that `apply_edits` applies, bottom-up: those on an existing line, without the ones
    that overlap an edit already taken on the same line."""
    out: list[Edit] = []
    last: tuple[int, int] | None = None  # (line, start) of the previously taken edit
    for e in sorted(edits, key=lambda e: (e.line, e.start, e.end), reverse=True):
        if not 1 <= e.line <= nlines:
            continue
        if last is not None and e.line == last[0] and e.end > last[1]:
            continue  # overlaps an edit already applied on this line
        out.append(e)
        last = (e.line, e.start)
    return out


def apply_edits(post: Post, edits: list[Edit]) -> tuple[bytes, int]:
    """New content of `post` with `edits` applied (overlapping edits after the first are skipped)."""
    lines = list(post.lines)
    chosen = applicable(edits, len(lines))
    for e in chosen:
        s = lines[e.line - 1]
        lines[e.line - 1] = s[:e.start - 1] + e.text + s[e.end - 1:]
    return post.serialize(lines), len(chosen)


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves either the old or the new file, never half."""
    path = Path(path)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def planned_changes(site, findings: list[Finding]) -> dict[str, tuple[Post, bytes, int]]:
    """rel path -> (post, new bytes, number of edits) for every file with fixable findings."""
    by_path: dict[str, list[Edit]] = {}
    for f in findings:
        if f.fix:
            by_path.setdefault(f.path, []).extend(f.fix)
    out = {}
    for rel, edits in by_path.items():
        post = site.by_rel.get(rel)
        if post is None or post.decode_error:
            continue  # never rewrite a file we could not decode faithfully
        data, n = apply_edits(post, edits)
        original = post.path.read_bytes()
        if data != original:
            out[rel] = (post, data, n)
    return out


def unified_diff(post: Post, new: bytes) -> str:
    old = post.path.read_bytes().decode("utf-8", "replace").splitlines(keepends=True)
    newl = new.decode("utf-8", "replace").splitlines(keepends=True)
    return "".join(difflib.unified_diff(old, newl, f"a/{post.rel}", f"b/{post.rel}"))
