from . import Hit, Rule


class UpdatedBeforeDate(Rule):
    """`updated` is not before `date`.

    What:
    The frontmatter's `updated` date is earlier than its `date`.

    Why:
    The "最后更新" date and the timeliness banner come from `updated`; a date before publication is
    a typo and makes staleness checks wrong.
    """
    code, slug, severity = "FMT006", "updated-before-date", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.date and post.updated and post.updated < post.date:
            yield Hit(*post.pos("updated"), f"`updated: {post.updated}` is before `date: {post.date}`")
