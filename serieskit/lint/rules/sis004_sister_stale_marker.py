from serieskit.analysis.lead import sister_line
from serieskit.finding import Edit
from serieskit.model.site import nfkc
from . import Hit, Rule


class SisterStaleMarker(Rule):
    """An item marked （在做） names a post that is not published yet.

    What:
    The sister line says `<标题>（在做）` for a post that is already published (its title, or the
    part of its title before `：`, matches a post of the site), or links a post and still marks it
    （在做）. The marker is stale: the item should be a link. Auto-fixable: the fix writes the link.

    Why:
    Readers skip items marked 在做; a stale marker hides a post that exists.
    """
    code, slug, severity, scope = "SIS004", "sister-stale-marker", "error", "series"
    fixable = True
    family = "SIS"

    def check(self, post, ctx):
        sl = sister_line(post, ctx.conv)
        if sl is None:
            return
        site = ctx.site
        for item in sl.items:
            if not item.marked:
                continue
            if item.kind == "link":
                kind, target = site.resolve(post, item.href)
                tp = site.post_at(target) if kind == "page" else None
                if tp is not None and not tp.is_draft:
                    note_start = item.end_col - len(item.note)
                    fix = [Edit(item.line, note_start, item.end_col, "")] if item.one_line else None
                    yield Hit(item.line, item.col, f"`{item.label}` is published", fix,
                              hint=f"drop the `{item.note}` marker")
                continue
            matches = [p for p in site.by_title.get(nfkc(item.label), []) if not p.is_draft and p is not post]
            if len(matches) == 1:
                tp = matches[0]
                link = f"[{item.label}]({site.rel_link(post, tp.site_path)})"
                fix = [Edit(item.line, item.col, item.end_col, link)] if item.one_line else None
                yield Hit(item.line, item.col, f"`{item.label}` is already published ({tp.rel})", fix,
                          hint=f"replace `{item.text}` with a link: {link}")

