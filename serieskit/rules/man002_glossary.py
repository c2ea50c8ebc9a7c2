from . import Hit, Rule


class GlossaryInvalid(Rule):
    """The series glossary parses and every entry is complete.

    What:
    The glossary file named by the manifest (`glossary: glossary.yml`) is missing, does not parse,
    is not a list, or has an entry without `term` or `desc`, an unknown key, or a term / alias that
    another entry already uses.

    Why:
    The glossary feeds the term table of the map post, the hover tooltips in every post and the
    Chinese search dictionary; a broken entry silently drops a term from all three.

    Bad:
    - term: 投机解码
      en: Speculative Decoding

    Good:
    - term: 投机解码
      en: Speculative Decoding
      desc: 先用小模型起草若干 token，再由目标模型一次并行验证的无损解码加速方法。
    """
    code, slug, severity, target = "MAN002", "glossary-invalid", "error", "site"
    family = "MAN"

    def check_site(self, ctx):
        for s in ctx.site.series.values():
            for path, code, line, col, _sev, msg in s.problems:
                if code == self.code:
                    yield Hit(line, col, msg, path=path)
