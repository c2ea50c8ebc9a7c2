from serieskit.lint.suppress import suppressions
from . import Rule


class BadSuppression(Rule):
    """Suppression comments name known rules and give a reason.

    What:
    A `<!-- spec-disable-next-line CODE: reason -->` (silences CODE on the next line) or
    `<!-- spec-disable CODE: reason -->` (silences CODE in the whole file) names an unknown rule
    code, has no code, or has no reason, or names a security rule (SEC: a post cannot silence a
    security finding; only the project's `conventions.yml` can relax one). Such a comment silences
    nothing.

    Why:
    Every exception to the conventions should say why, so the next author can tell a deliberate
    exception from a forgotten one.
    """
    code, slug, severity = "SPEC001", "bad-suppression", "warning"
    family = "SPEC"

    def check(self, post, ctx):
        return suppressions(post).problems
