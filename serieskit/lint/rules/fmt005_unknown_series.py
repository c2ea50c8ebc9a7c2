import difflib

from . import Hit, Rule


class UnknownSeries(Rule):
    """`series:` names a series that has a manifest.

    What:
    The frontmatter says `series: <slug>` but there is no `series/<slug>/series.yml`.

    Why:
    A series post takes its index page, position, planned posts and rule switches from its
    manifest; a typo in the slug silently turns the post into an orphan.
    """
    code, slug, severity = "FMT005", "unknown-series", "error"
    family = "FMT"

    def check(self, post, ctx):
        s = post.series_slug
        if not s or s in ctx.site.series or post.fm.data is None:
            return
        close = difflib.get_close_matches(s, list(ctx.site.series), n=1)
        known = ", ".join(sorted(ctx.site.series)) or "none"
        hint = f"did you mean `{close[0]}`? Known: {known}" if close else f"Known: {known}"
        yield Hit(*post.pos("series"), f"series `{s}` has no manifest (series/{s}/series.yml)", hint=hint)
