"""The one shape of "a problem at a place", and the edits of an auto-fix.

Every producer uses `Finding`: the rules, the frontmatter parser, the loader (with an empty code:
a neutral problem that the rule owning it reports) and the engine; every reporter reads it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Edit:
    """Replace columns [start, end) of a raw line (1-based, end exclusive) with `text`."""
    line: int
    start: int
    end: int
    text: str


@dataclass
class Finding:
    """A problem at a place: the one shape every rule, the loader, the engine and every reporter use.

    `message` says what is wrong, `hint` (optional) what to do about it; `fix` holds the edits of an
    auto-fix. A rule leaves `code` and `severity` empty (the engine fills them from the rule and the
    series' switches) and `path` empty when the finding is in the post it checks.
    """
    path: str
    line: int
    column: int
    code: str
    severity: str
    message: str
    hint: str | None = None
    fix: list[Edit] | None = None

    @property
    def fixable(self) -> bool:
        return bool(self.fix)

    def sort_key(self):
        return (self.path, self.line, self.column, self.code, self.message)


def problem(line: int, column: int, message: str, hint: str | None = None) -> Finding:
    """A neutral problem found while reading or parsing a file: no path, code or severity yet (the
    rule that owns it reports it)."""
    return Finding("", line, column, "", "", message, hint)
