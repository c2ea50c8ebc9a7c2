from serieskit.analysis.lead import banner
from . import Hit, Rule
from .tml001_banner_missing import is_timely


class Stale(Rule):
    """A timely post, or a post with a timeliness banner, is updated within the series' staleness window.

    What:
    The post's last update (`updated`, else `date`) is more than `stale_after_days` (manifest;
    default 180) before the build date. The build date is `--today`, else SOURCE_DATE_EPOCH, else
    today. Readers see a "可能已过时" notice in the post's banner until it is refreshed; a post
    the series does not call timely (`timely: false`) is checked too when it carries a banner,
    since its readers see the same notice.

    Why:
    Stale acceleration advice is worse than none: flags get renamed, kernels get replaced. The
    warning reminds the author to re-check the post and bump `updated`.
    """
    code, slug, severity, scope = "TML003", "stale", "warning", "series"
    family = "TML"

    def check(self, post, ctx):
        st = ctx.site.staleness(post)      # the same decision as the banner's "可能已过时" notice
        # warned where it matters: a timely post, or any post whose banner readers see the notice in
        if st is None or not st.stale or not (is_timely(post, ctx) or banner(post, ctx.conv) is not None):
            return
        key = "updated" if post.updated else "date"
        yield Hit(*post.pos(key), f"last updated {st.last.isoformat()}, {st.age} days before {st.today.isoformat()} "
                                  f"(stale after {st.window})", hint="re-check the post and bump `updated`")
