from serieskit.analysis.lead import sister_line
from . import Hit, Rule


class SisterSelf(Rule):
    """A post does not list itself as its own sister.

    What:
    A linked item of the sister line resolves to the post itself.

    Why:
    A self-link takes a slot meant for a related post and sends the reader in a circle.
    """
    code, slug, severity, scope = "SIS005", "sister-self", "warning", "series"
    family = "SIS"

    def check(self, post, ctx):
        sl = sister_line(post, ctx.conv)
        if sl is None:
            return
        for item in sl.items:
            if item.kind == "link":
                kind, target = ctx.site.resolve(post, item.href)
                if kind == "page" and target == post.site_path:
                    yield Hit(item.line, item.col, f"the sister line lists the post itself (`{item.href}`)")
