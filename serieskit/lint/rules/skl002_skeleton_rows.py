from serieskit.analysis.sections import SECTION_REF, from_chinese, sections, skeleton, to_chinese
from . import Hit, Rule


class SkeletonRows(Rule):
    """The skeleton table lists exactly the numbered sections, in order.

    What:
    The `§` numbers in the first column of the skeleton table differ from the post's numbered `##`
    headings after `零`: a section is missing from the table, the table has a row for a section
    that does not exist, or the rows are out of order.

    Why:
    A skeleton that disagrees with the body sends the reader to sections that are not there.
    """
    code, slug, severity, scope = "SKL002", "skeleton-rows", "error", "series"
    family = "SKL"

    def check(self, post, ctx):
        head, table = skeleton(post, ctx.conv)
        if table is None:
            return
        want = [s.number for s in sections(post, ctx.conv) if s.number not in (None, 0)]
        got: list[tuple[int, int | None, str]] = []
        for line, cells in table.rows:
            first = cells[0] if cells else ""
            m = SECTION_REF.match(first)
            got.append((line, from_chinese(m.group("num")) if m else None, first))
        for line, num, text in got:
            if num is None:
                yield Hit(line, 1, f"skeleton row `{text}` does not start with a section number like `§一`")
        nums = [n for _, n, _ in got if n is not None]
        if nums == want:
            return
        missing = [n for n in want if n not in nums]
        extra = [n for n in nums if n not in want]
        fmt = lambda ns: "、".join("§" + to_chinese(n) for n in ns)  # noqa: E731
        if missing:
            yield Hit(table.start, 1, f"skeleton table lacks {fmt(missing)} (the post's numbered sections are "
                                      f"{fmt(want) or 'none'})")
        for line, num, text in got:
            if num is not None and num in extra:
                yield Hit(line, 1, f"skeleton row `{text}` has no `## {to_chinese(num)}、…` section in the post")
        if not missing and not extra:
            yield Hit(table.start, 1, f"skeleton rows are out of order: {fmt(nums)}; the sections are {fmt(want)}")
