from serieskit.model.schema import FRONTMATTER
from . import Hit, Rule


class RequiredKey(Rule):
    """Every post has `title`, `slug` and `date`; a series post also has `order`.

    What:
    A required frontmatter key is missing: `title`, `slug`, `date`, and `order` when `series` is set.

    Why:
    The slug makes the URL, the date orders the archive and the feed, and `order` places the post
    in its series (previous / next, "第 k / n 篇").
    """
    code, slug, severity = "FMT002", "required-key", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        line = post.fm.end or post.fm.start or 1
        m = post.meta
        for key in FRONTMATTER:
            if key.required == "always" and m.get(key.name) in (None, ""):
                yield Hit(line, 1, f"frontmatter is missing `{key.name}`")
            elif key.required == "with series" and "series" in m and m.get(key.name) is None:
                yield Hit(line, 1, f"frontmatter is missing `{key.name}` (required because `series` is set)")
