from serieskit.analysis.figures import figures
from . import Hit, Rule


class CaptionMissing(Rule):
    """Every image has a caption on the next line.

    What:
    An image alone on its line (`![alt](src)`) is not followed by a caption line: the next line is
    blank, the end of the file, another image, a heading, a list item, a table or a code fence.

    Why:
    The series' figures always say what they show (the seed: "每张图后加两个空格换行再写图注"); the
    build renders the pair as <figure> with <figcaption>, which also helps screen readers.
    """
    code, slug, severity = "FIG001", "caption-missing", "error"
    family = "FIG"

    def check(self, post, ctx):
        for fig in figures(post):
            if fig.caption is None:
                yield Hit(fig.image.line, fig.image.col, f"image `{fig.image.src}` has no caption ({fig.why_none})",
                          hint="end the image line with two spaces and write the caption on the next line")
