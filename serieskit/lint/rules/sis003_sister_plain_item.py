from serieskit.analysis.lead import sister_line
from serieskit.model.site import nfkc
from . import Hit, Rule


class SisterPlainItem(Rule):
    """An unlinked sister item is a planned post marked （在做）.

    What:
    A plain (unlinked) item of the sister line that is not the title of a post listed under
    `planned:` in the series manifest, or a planned post named without the `（在做）` marker (or
    with a half-width `(在做)`).

    Why:
    Plain items are promises: they name posts the series will publish. An item that is neither a
    link nor a planned post is a dead end for the reader.
    """
    code, slug, severity, scope = "SIS003", "sister-plain-item", "error", "series"
    family = "SIS"

    def check(self, post, ctx):
        sl = sister_line(post, ctx.conv)
        series = ctx.series
        if sl is None or series is None:
            return
        planned = {nfkc(p.title) for p in series.planned}
        for item in sl.items:
            if item.kind != "plain":
                continue
            label = nfkc(item.label)
            if label in planned:
                if not item.marker_exact:
                    yield Hit(item.line, item.col, f"planned post `{item.label}` must be followed by "
                                                   f"`{ctx.conv.planned_marker}`")
                continue
            if item.marked and ctx.site.by_title.get(label):
                continue  # a published post marked 在做: SIS004 reports it (with a fix)
            yield Hit(item.line, item.col, f"`{item.text}` is neither a link nor a planned post of "
                                           f"{series.manifest_rel}", hint="link the post or add it under `planned:`")
