"""Apply the fixes that findings carry: edits applied bottom-up per file, each file written with
`write_fixed` (atomically where that keeps the file what it is: see there), nothing else changed byte
for byte.
"""
from __future__ import annotations

import difflib
import os
import stat
import tempfile
from pathlib import Path

from serieskit.finding import Edit
from serieskit.model.site import Finding, Post


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


class NotWritten(Exception):
    """A fix that is not written, and why (a read-only file or folder, a link out of the project)."""


def write_fixed(path: Path, data: bytes, root: Path | None = None) -> Path:
    """Write a fixed post over `path`; return the file written.

    What the author has on disk stays what it was: a symlink stays a link (its target inside the
    project's series/ is written, as the loader follows only those; a target elsewhere is refused), a file with other hard links keeps its
    inode (so every name sees the fix), the file's permissions stay as they were, and a read-only
    file is refused (NotWritten), as is a file whose folder cannot take the temporary file.

    The trade-off: an ordinary file (one name, not a link) is written atomically (`write_atomic`:
    a killed write leaves the old file whole); a symlink's target and a hard-linked file are written
    in place (`write_in_place`: truncate and write through the same inode), because a rename would
    put a new file where the link's target or the shared inode was. An interrupted in-place write
    can leave the file half-written; the fix is computed in full before the file is opened, so only
    the write itself is at risk.
    """
    path = Path(path)
    target = path
    if path.is_symlink():
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise NotWritten(f"the symlink cannot be followed ({exc})") from None
        if root is not None and not target.is_relative_to((Path(root) / "series").resolve()):
            raise NotWritten(f"it is a symlink to {target}, outside series/; not written")
    try:
        st = target.stat()
    except OSError as exc:
        raise NotWritten(f"cannot read it ({exc.strerror or exc})") from None
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise NotWritten("the file is read-only; make it writable to fix it")
    try:
        if target != path or st.st_nlink > 1:
            write_in_place(target, data)
        else:
            write_atomic(target, data)
    except OSError as exc:
        where = "its folder" if exc.filename and Path(exc.filename) == target.parent else "the file"
        raise NotWritten(f"cannot write {where} ({exc.strerror or exc})") from None
    return target


def write_in_place(path: Path, data: bytes) -> None:
    """Overwrite `path` through its own inode (links, permissions and owner stay as they were)."""
    with open(path, "r+b") as fh:
        fh.write(data)
        fh.truncate()
        fh.flush()
        os.fsync(fh.fileno())


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves either the old or the new file, never half."""
    path = Path(path)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        exc.filename = str(path.parent)
        raise
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
