from serieskit.analysis.marks import BRACKETS, QUOTES, bracket_problems, marks_of, quote_problems, unbalanced_mark_lines
from serieskit.analysis.prose import paragraphs_around
from . import Hit, Rule


class UnpairedMarks(Rule):
    """Quotation marks and full-width brackets come in pairs.

    What:
    In a paragraph of prose: a quote opened inside another or never closed, a `”` that closes
    nothing (unless TYP002 reports it: a `”` that opens a quote the next `”` closes), and a
    full-width bracket `（）`, `《》`, `「」`, `『』`, `【】` without its other half. Only prose (not
    code, math, links, URLs, raw HTML or the frontmatter). Not auto-fixable: which half is missing,
    and where, is the author's call.

    Why:
    An unclosed bracket or quote leaves the reader unsure where an aside or a quote ends.
    """
    code, slug, severity = "TYP004", "unpaired-marks", "warning"
    family = "TYP"
    reads_only_post = True

    def check(self, post, ctx):
        for para in paragraphs_around(post, unbalanced_mark_lines(post)):
            found = [p for p in quote_problems(marks_of(para, QUOTES)) if p[3] is None]
            found += list(bracket_problems(marks_of(para, BRACKETS)))
            for line, col, message, _ in found:
                yield Hit(line, col, message, hint="add or remove the other half")
