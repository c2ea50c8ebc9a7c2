from serieskit.analysis.lead import banner
from . import Hit, Rule


def is_timely(post, ctx) -> bool:
    v = post.meta.get("timely")
    if isinstance(v, bool):
        return v
    return bool(ctx.series and ctx.series.timely)


class BannerMissing(Rule):
    """A timely post carries the timeliness banner in its lead.

    What:
    The post is timely (`timely: true`, or the series manifest's default) but no line before the
    first `##` heading starts with `⚠️ 时效声明（最后更新：YYYY-MM-DD）`.

    Why:
    Framework flags, model versions and benchmark numbers age fast. The banner tells readers which
    state of the world the post describes; the site turns it into a "可能已过时" notice when stale.
    """
    code, slug, severity, scope = "TML001", "banner-missing", "error", "series"
    family = "TML"

    def check(self, post, ctx):
        if post.fm.data is None or not is_timely(post, ctx):
            return
        if banner(post, ctx.conv) is None:
            first = next((h for h in post.body.headings if h.level <= 2), None)
            date = post.last_update.isoformat() if post.last_update else "YYYY-MM-DD"
            yield Hit(first.line if first else post.body_start, 1,
                      "timely post without a banner",
                      hint=f"add `> {ctx.conv.banner(date)}：…` before the first `##`")
