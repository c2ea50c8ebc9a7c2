from serieskit.analysis.lead import sister_line
from . import Hit, Rule


class BrokenLink(Rule):
    """Relative links point at pages or files of the site.

    What:
    A relative link (`[text](path)` or a `[label]: path` definition) does not resolve to a post, a
    generated page (series index, tags, archive, rules), a page of `docs/` or a file next to the
    posts; or it climbs out of the site (`../../README.md`); or it points at a draft from a
    published post. Links to other hosts and pure `#anchors` are not checked here. (Sister-line
    links are SIS002's.)

    Why:
    MkDocs reports broken links without the author's line number; this finds them at the line.
    Links to drafts break the published build, which leaves drafts out.
    """
    code, slug, severity = "LNK001", "broken-link", "error"
    family = "LNK"

    def check(self, post, ctx):
        site = ctx.site
        sl = sister_line(post, ctx.conv)
        sister_lines = {i.line for i in sl.items} if sl else set()
        for link in post.body.links:
            if link.line in sister_lines and not link.reference:
                continue
            if link.href.startswith(("mailto:", "tel:")):
                continue
            kind, target = site.resolve(post, link.href)
            if kind == "outside":
                yield Hit(link.line, link.href_col, f"link `{link.href}` climbs out of the site's pages")
            elif kind == "missing":
                yield Hit(link.line, link.href_col, f"link `{link.href}` does not resolve to a page or file of the "
                                                    f"site (resolved to `{target}`)")
            elif kind == "page":
                tp = site.post_at(target)
                if tp is not None and tp.is_draft and not post.is_draft:
                    yield Hit(link.line, link.href_col, f"link `{link.href}` points at a draft ({tp.rel}), "
                                                        f"which the published site leaves out")
