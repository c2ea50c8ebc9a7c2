from serieskit.model.site import MANIFEST_FILE
from . import Hit, Rule


class FolderSeriesMismatch(Rule):
    """A post lives in the folder of its series.

    What:
    A post under `series/<a>/` says `series: <b>`, or a post in a series folder (one with a
    `series.yml`) has no `series:` key at all.

    Why:
    The folder makes the URL (`/<a>/<slug>/`) and the frontmatter makes the series position; when
    they disagree the post appears in one series' URLs and another series' index.
    """
    code, slug, severity = "FMT009", "folder-series-mismatch", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        s = post.series_slug
        folder_is_series = post.area in ctx.site.series
        if s and s != post.area:
            yield Hit(*post.pos("series"), f"`series: {s}` but the post is in series/{post.area}/",
                      hint=f"move it to series/{s}/ or fix the key")
        elif not s and folder_is_series and isinstance(post.meta.get("title"), str):
            yield Hit(post.fm.end or 1, 1, f"the post is in the series folder series/{post.area}/ "
                                             f"(it has a {MANIFEST_FILE}) but has no `series: {post.area}`")
