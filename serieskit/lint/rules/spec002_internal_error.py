import traceback

from serieskit.finding import Finding
from . import Rule


class InternalError(Rule):
    """A rule crashed on this file (a bug in the engine, not in the post).

    What:
    One of the rules raised an exception on this file. The engine reports the rule and the
    exception, skips that rule for this file and runs the others; the CLI exits with status 2.

    Why:
    A crash must never hide the other findings or stop `mkdocs serve`. Please report the finding
    with the file that caused it.
    """
    code, slug, severity = "SPEC002", "internal-error", "error"
    family = "SPEC"

    def check(self, post, ctx):
        return ()   # nothing in a post to check: the engine reports rule_crashed(), the hook render_crashed()


def rule_crashed(path: str, rule: Rule, exc: Exception) -> Finding:
    """SPEC002 for a rule that raised on `path`: the rule, the exception and where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return Finding(path, 1, 1, InternalError.code, InternalError.severity,
                   f"internal error in rule {rule.code} ({rule.slug}): {type(exc).__name__}: {exc} "
                   f"[{where.filename.rsplit('/', 1)[-1]}:{where.lineno}]", hint="please report it")


def render_crashed(path: str, what: str) -> Finding:
    """SPEC002 for a page Python-Markdown could not render (`what`: the exception, shortened)."""
    return Finding(path, 1, 1, InternalError.code, InternalError.severity, f"Markdown cannot render this page ({what})",
                   hint="look for deeply nested lists, quotes, HTML blocks or emphasis, and please report the file")
