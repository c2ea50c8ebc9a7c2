from serieskit.analysis.lead import sister_line
from . import Hit, Rule


class SisterLineMissing(Rule):
    """A series post has a sister-post line in its lead.

    What:
    Before the first `##` heading there is no paragraph starting with `姊妹篇：`.

    Why:
    Every post of the series tells the reader where it sits: the posts it builds on and the ones
    that continue it. Readers arriving from search need that map.
    """
    code, slug, severity, scope = "SIS001", "sister-line-missing", "error", "series"
    family = "SIS"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        if sister_line(post, ctx.conv) is None:
            first = next((h for h in post.body.headings if h.level <= 2), None)
            line = first.line if first else post.body_start
            yield Hit(line, 1, "no sister-post line",
                      hint=f"add a paragraph starting with `{ctx.conv.sister_prefix}` before the first `##` heading")
