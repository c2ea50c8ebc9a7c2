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
        return ()   # the engine emits SPEC002 itself when a rule raises
