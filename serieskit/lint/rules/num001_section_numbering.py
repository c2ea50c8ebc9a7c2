from serieskit.analysis.sections import sections, to_chinese
from . import Hit, Rule


class SectionNumbering(Rule):
    """`##` headings are numbered 零、一、二、… in order, closing sections last.

    What:
    A series post's `##` headings must read `零、…`, `一、…`, `二、…` with no gap and no repeat.
    Unnumbered sections whose titles start with 参考, 附录 or 术语 are allowed, at the end only.

    Why:
    The numbering ties the body to the skeleton table (§一, §二) and lets posts cite each other's
    sections ("见效率指标全景 §三").
    """
    code, slug, severity, scope = "NUM001", "section-numbering", "error", "series"
    family = "NUM"

    def check(self, post, ctx):
        expect = 0
        closing_seen = None
        for s in sections(post, ctx.conv):
            h = s.heading
            if s.number is None:
                if s.closing:
                    closing_seen = closing_seen or h
                    continue
                yield Hit(h.line, h.col, f"`## {h.text}` is not numbered",
                          hint=f"write `## {to_chinese(expect)}、{h.text}` "
                               f"(only 参考 / 附录 / 术语 sections may go unnumbered, at the end)")
                continue
            if closing_seen is not None:
                yield Hit(h.line, h.col, f"numbered section `{h.text}` comes after the closing section "
                                         f"`{closing_seen.text}`", hint="closing sections go last")
            if s.number != expect:
                yield Hit(h.line, h.col, f"`## {h.text}`: expected `{to_chinese(expect)}、` here "
                                         f"(sections run 零、一、二… with no gap)")
                expect = s.number + 1 if s.number > expect else expect
            else:
                expect += 1
