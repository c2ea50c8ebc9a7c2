from . import Hit, Rule


class DuplicateSlugOrOrder(Rule):
    """Slugs are unique across the site, and orders are unique within a series.

    What:
    Two posts share a `slug`, or two posts of one series share an `order`. A post whose `order`
    is also the order of a planned post of its manifest is reported too (remove the planned entry
    once the post is written). A post file named `index.md` is reported too: on the site it would be
    its folder's own page (`/posts/`, a series' index), not a post at `/posts/<slug>/`, and the two
    builds (MkDocs, Zensical) would each take it differently.

    Why:
    The slug is the URL: two posts with one slug overwrite each other. The order is the series
    position: two posts at one position make previous / next ambiguous.
    """
    code, slug, severity = "FMT004", "duplicate-slug-order", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.rel.rsplit("/", 1)[-1] == "index.md":
            yield Hit(*post.pos("slug"), f"a post cannot be named `index.md`: that is the page of its folder "
                                         f"(`/{post.area}/`), not a post", hint=f"name the file after its slug, "
                                         f"e.g. `{post.slug if post.slug != 'index' else 'overview'}.md`")
        if post.fm.data is None:
            return
        site = ctx.site
        if isinstance(post.meta.get("slug"), str):
            others = [p for p in site.by_slug.get(post.slug, []) if p is not post]
            if others:
                yield Hit(*post.pos("slug"), f"slug `{post.slug}` is also used by {', '.join(p.rel for p in others)}")
        if post.series_slug and post.order is not None:
            others = [p for p in site.by_series_order.get((post.series_slug, post.order), []) if p is not post]
            if others:
                yield Hit(*post.pos("order"), f"order {post.order} of series `{post.series_slug}` is also used by "
                                               f"{', '.join(p.rel for p in others)}")
            series = site.series_of(post)
            if series is not None:
                for pl in series.planned:
                    if pl.order == post.order:
                        yield Hit(*post.pos("order"), f"order {post.order} is also the order of the planned post "
                                                       f"`{pl.title}` in {series.manifest_rel}", hint="remove or renumber it")
