"""Convention findings to MkDocs' log, and the strict gate. The lines and the gate's message are the
engine's (serieskit/lint/report.py `build_messages`, `aborted`: the Zensical build prints the same).

Every error is a WARNING on the `mkdocs.plugins.series` logger (so MkDocs lists it with its own
warnings), or an ERROR when the command line silenced warnings (`-q`); warnings are INFO. The gate
counts the errors itself: MkDocs' own count misses warnings under `-q` or `-v` (mkdocs/mkdocs#4126,
#3991), so a strict build aborts on this count.

MkDocs' own warnings (a broken link or anchor in a page, `validation:` in mkdocs.yml) are counted
here too, by a handler on the `mkdocs` logger (`MkDocsWarnings`): under `-q` MkDocs raises that
logger's level to ERROR, which drops its warnings before any handler sees them and lets a strict
build pass with broken links. In strict mode the gate lowers the level back to WARNING (those
warnings are then printed even under `-q`, as the convention errors are) and aborts on its count.
"""
from __future__ import annotations

import logging
import sys

from mkdocs.exceptions import Abort
from mkdocs.plugins import get_plugin_logger

from serieskit.lint.report import Message, aborted, build_messages
from .state import BuildState

log = get_plugin_logger("series")


class MkDocsWarnings(logging.Handler):
    """Counts the WARNING and ERROR records of the `mkdocs` loggers, except the gate's own (counted
    as convention errors)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(log.name):
            self.count += 1


mkdocs_warnings = MkDocsWarnings()


def watch(strict: bool) -> None:
    """At the start of a build: count MkDocs' own warnings from zero; in strict mode make sure they
    are logged at all (`-q` sets the level to ERROR)."""
    mk = logging.getLogger("mkdocs")
    if mkdocs_warnings not in mk.handlers:
        mk.addHandler(mkdocs_warnings)
    mkdocs_warnings.count = 0
    if strict and mk.getEffectiveLevel() > logging.WARNING:
        mk.setLevel(logging.WARNING)


def error(state: BuildState, msg: str) -> None:
    state.errors += 1
    if log.isEnabledFor(logging.WARNING):
        log.warning(msg)
    else:
        log.error(msg)


def say(state: BuildState, messages: list[Message]) -> None:
    """The engine's messages (serieskit/lint/report.py) to MkDocs' log: an error is counted; a note is
    shown even under `-q` (not as a warning, which MkDocs would count: on stderr itself)."""
    for m in messages:
        if m.level == "error":
            error(state, m.text)
        elif m.level == "note" and not log.isEnabledFor(logging.INFO):
            print(m.text, file=sys.stderr)
        elif m.level in ("note", "info"):
            log.info(m.text)
        else:
            log.debug(m.text)


def report(state: BuildState, strict: bool = False) -> None:
    """Log the findings; under strict, also one line per security rule conventions.yml relaxes
    (shown even under `-q`: the maintainers' choice is stated, not hidden)."""
    say(state, build_messages(state.build.findings, state.build.site.conv, strict))


def check(state: BuildState, strict: bool) -> None:
    if not strict or not (state.errors or mkdocs_warnings.count):
        return
    raise Abort(aborted(state.errors, mkdocs_warnings.count, "MkDocs"))
