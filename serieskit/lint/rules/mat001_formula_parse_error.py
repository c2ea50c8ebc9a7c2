from serieskit.finding import Finding
from . import Rule


class FormulaParseError(Rule):
    """A formula does not parse: KaTeX cannot draw it.

    What:
    The build draws every formula (`$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]`) with the site's pinned KaTeX.
    One KaTeX cannot parse is reported here with KaTeX's message, at the line that holds it; the page
    shows its TeX source instead. A strict build fails. Commands that reach outside the formula
    (`\\href`, `\\url`, `\\htmlData`, `\\includegraphics`) are not drawn (KaTeX without trust).

    Why:
    Without this, the reader's browser would be the first to find the error.

    """
    code, slug, severity = "MAT001", "formula-parse-error", "error"
    family = "MAT"

    def check(self, post, ctx):
        return ()   # drawn by the host's build (serieskit/draw): formula_finding()


def formula_finding(path: str, raw: str, tex: str, message: str) -> Finding:
    at = raw.find(tex) if tex else -1
    line = raw.count("\n", 0, at) + 1 if at >= 0 else 1
    col = at - (raw.rfind("\n", 0, at) + 1) + 1 if at >= 0 else 1
    text = " ".join(message.split())
    return Finding(path, line, col, FormulaParseError.code, FormulaParseError.severity,
                   f"KaTeX cannot draw this formula: {text[:300]}",
                   hint="fix the TeX (https://katex.org/docs/supported.html)")
