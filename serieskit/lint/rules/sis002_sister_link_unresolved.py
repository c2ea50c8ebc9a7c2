from serieskit.analysis.lead import sister_line
from . import Hit, Rule


class SisterLinkUnresolved(Rule):
    """Every linked sister item points at an existing page of the site.

    What:
    A linked item of the sister line does not resolve to a post of the site or to a series index
    page (`index.md` of a series folder), or it points at a draft (drafts are left out of the
    published site), or it is an external URL.

    Why:
    A broken sister link is the first thing a reader clicks and the first 404 they see.
    """
    code, slug, severity, scope = "SIS002", "sister-link-unresolved", "error", "series"
    family = "SIS"

    def check(self, post, ctx):
        sl = sister_line(post, ctx.conv)
        if sl is None:
            return
        site = ctx.site
        for item in sl.items:
            if item.kind != "link":
                continue
            kind, target = site.resolve(post, item.href)
            if kind == "external":
                yield Hit(item.line, item.href_col, f"sister item `{item.label}` links outside the site ({item.href})",
                          hint="link a post of the series")
            elif kind in ("missing", "outside", "anchor", "file"):
                yield Hit(item.line, item.href_col, f"sister link `{item.href}` does not resolve to a page of the site"
                          + (f" (looked for {target})" if kind == "missing" else ""))
            elif kind == "page":
                tp = site.post_at(target)
                if tp is not None and tp.is_draft and not post.is_draft:
                    yield Hit(item.line, item.href_col, f"sister link `{item.href}` points at a draft "
                                                        f"({tp.rel}), which the published site leaves out")
