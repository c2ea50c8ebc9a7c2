from serieskit.analysis.figures import GOOD_TAIL, figures
from serieskit.finding import Edit
from . import Hit, Rule


def _describe(tail: str) -> str:
    t = tail
    if "\\" in t:
        return "a trailing backslash"
    if "<br" in t.lower():
        return "a <br>"
    if "\t" in t:
        return "a tab"
    n = len(t)
    return {0: "no trailing spaces", 1: "one trailing space"}.get(n, f"{n} trailing spaces")


class CaptionJoin(Rule):
    """The image line ends with exactly two spaces before its caption.

    What:
    An image with a caption on the next line is joined to it with zero, one, or three or more
    trailing spaces, a tab, a trailing backslash or `<br>`, instead of exactly two spaces.
    Auto-fixable: the fix rewrites the end of the image line to exactly two spaces.

    Why:
    The convention is a Markdown hard break ("两个空格换行"); without it the caption runs into the
    image's paragraph, and the other forms render differently across Markdown engines.
    """
    code, slug, severity = "FIG002", "caption-join", "error"
    fixable = True
    family = "FIG"

    def check(self, post, ctx):
        for fig in figures(post):
            if fig.caption is None or fig.tail == GOOD_TAIL:
                continue
            start = fig.image.close_col
            yield Hit(fig.image.line, start, f"image and caption are joined with {_describe(fig.tail)}",
                      [Edit(fig.image.line, start, start + len(fig.tail), GOOD_TAIL)],
                      hint="end the image line with exactly two spaces")
