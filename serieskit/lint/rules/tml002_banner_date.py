from serieskit.analysis.lead import banner
from serieskit.finding import Edit
from . import Hit, Rule


class BannerDate(Rule):
    """The banner's date equals the frontmatter's `updated` (or `date`).

    What:
    The date in `⚠️ 时效声明（最后更新：…）` differs from the frontmatter's `updated`, or from
    `date` when there is no `updated`, or is not a date at all. Auto-fixable: the frontmatter is the
    source of truth and the fix writes its date into the banner.

    Why:
    Two dates that disagree make readers distrust both; the frontmatter date also drives the
    staleness notice, the feed and the archive.
    """
    code, slug, severity, scope = "TML002", "banner-date", "error", "series"
    fixable = True
    family = "TML"

    def check(self, post, ctx):
        b = banner(post, ctx.conv)
        want = post.last_update
        if b is None or want is None:
            return
        if b.date is None:
            yield Hit(b.line, b.col, f"the banner does not read `{ctx.conv.banner(want.isoformat())}`")
            return
        if b.date.strip() != want.isoformat():
            src = "updated" if post.updated else "date"
            yield Hit(b.line, b.date_col, f"banner date `{b.date}` differs from the frontmatter's "
                                          f"`{src}: {want.isoformat()}`",
                      [Edit(b.line, b.date_col, b.date_col + len(b.date), want.isoformat())])
