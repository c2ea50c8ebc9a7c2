"""Convention findings to MkDocs' log, and the strict gate.

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

from serieskit.lint import report as reporter
from serieskit.lint.engine import relaxed_security
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


def report(state: BuildState, strict: bool = False) -> None:
    """Log the findings; under strict, also one line per security rule conventions.yml relaxes
    (shown even under `-q`: the maintainers' choice is stated, not hidden)."""
    if strict:
        for note in relaxed_security(state.build.site.conv):
            if log.isEnabledFor(logging.INFO):
                log.info(reporter.printable(note))
            else:   # -q: a note is not a warning (MkDocs would count it), so it goes to stderr itself
                print(reporter.printable(note), file=sys.stderr)
    errors = warnings = 0
    for f in state.build.findings:
        msg = reporter.entry(f, severity=False)
        if f.severity == "error":
            errors += 1
            error(state, msg)
        elif f.severity == "warning":
            warnings += 1
            log.info(f"warning: {msg}")
        else:
            log.debug(msg)
    if errors or warnings:
        log.info(f"conventions: {errors} error(s), {warnings} warning(s); details: python scripts/lint.py")


def check(state: BuildState, strict: bool) -> None:
    if not strict or not (state.errors or mkdocs_warnings.count):
        return
    parts = [f"{state.errors} convention error(s)"] if state.errors else []
    if mkdocs_warnings.count:
        parts.append(f"{mkdocs_warnings.count} MkDocs warning(s)")
    raise Abort(f"Aborted with {' and '.join(parts)} in strict mode "
                f"(details above; python scripts/lint.py lists the convention errors too)")
