from serieskit.analysis.marks import QUOTES, marks_of, quote_problems, unbalanced_mark_lines
from serieskit.analysis.prose import paragraphs_around
from . import Hit, Rule


class QuoteDirection(Rule):
    """A quote opens with `“`, not with the closing mark `”`.

    What:
    In a paragraph of prose, a closing quotation mark `”` that opens a quote the next `”` closes
    (`”解码优化专题”`). Only prose (not code, math, links, URLs, raw HTML or the frontmatter).
    Auto-fixable: the first mark becomes `“`. Other unpaired marks are TYP004's.

    Why:
    The two marks face each other; a closing mark at the start of a quote turns the wrong way in
    Chinese fonts, a typo a reader sees at once and an author's eye slides over.
    """
    code, slug, severity = "TYP002", "quote-direction", "warning"
    fixable = True
    family = "TYP"
    reads_only_post = True

    def check(self, post, ctx):
        quoted = [n for n in unbalanced_mark_lines(post) if QUOTES.search(post.line(n))]
        for para in paragraphs_around(post, quoted):
            for line, col, message, fix in quote_problems(marks_of(para, QUOTES)):
                if fix:
                    yield Hit(line, col, message, fix, hint="write `“` where the quote opens")
