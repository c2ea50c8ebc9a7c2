"""Convention findings to MkDocs' log, and the strict gate.

Every error is a WARNING on the `mkdocs.plugins.series` logger (so MkDocs lists it with its own
warnings), or an ERROR when the command line silenced warnings (`-q`); warnings are INFO. The gate
counts the errors itself: MkDocs' own count misses warnings under `-q` or `-v` (mkdocs/mkdocs#4126,
#3991), so a strict build aborts on this count.
"""
from __future__ import annotations

import logging
import sys

from mkdocs.exceptions import Abort
from mkdocs.plugins import get_plugin_logger

from serieskit import report as reporter
from serieskit.engine import relaxed_security
from state import BuildState

log = get_plugin_logger("series")


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
    if strict and state.errors:
        raise Abort(f"Aborted with {state.errors} convention error(s) in strict mode "
                    f"(details above; python scripts/lint.py lists them too)")
