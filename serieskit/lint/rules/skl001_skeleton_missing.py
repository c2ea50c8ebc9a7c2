from serieskit.analysis.sections import skeleton
from . import Hit, Rule


class SkeletonMissing(Rule):
    """A series post opens with `## 零、本文骨架` and its table.

    What:
    The post has no `## 零、本文骨架` section, the section has no table, or the table's columns are
    not `小节 | 主题 | 产出`.

    Why:
    The skeleton table is the series' reading contract: one row per section with what the reader
    gets from it, so a reader can jump to the part they need.
    """
    code, slug, severity, scope = "SKL001", "skeleton-missing", "error", "series"
    family = "SKL"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        conv = ctx.conv
        head, table = skeleton(post, conv)
        if head is None:
            first = next((h for h in post.body.headings if h.level == 2), None)
            yield Hit(first.line if first else post.body_start, 1,
                      f"no `## {conv.skeleton_heading}` section",
                      hint=f"open the body with it and a table `| {' | '.join(conv.skeleton_columns)} |`")
        elif table is None:
            yield Hit(head.line, head.col, f"`{conv.skeleton_heading}` has no table "
                                           f"(`| {' | '.join(conv.skeleton_columns)} |`, one row per § section)")
        elif [c.replace(" ", "") for c in table.header] != conv.skeleton_columns:
            yield Hit(table.start, 1, f"skeleton table columns are `{' | '.join(table.header)}`",
                      hint=f"expected `{' | '.join(conv.skeleton_columns)}`")
