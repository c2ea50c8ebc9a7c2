import re

from serieskit.finding import Edit
from serieskit.analysis.prose import own_prose
from . import Hit, Rule

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
FULL = {",": "，", ";": "；", ":": "：", "!": "！", "?": "？", ".": "。"}
# a half-width mark right after a Chinese character, where the sentence goes on in Chinese or ends
# (`.` only at the end of a sentence: not `图3.2`, not a decimal, not `...`)
# the cheap test, the lines to read: a mark right after a Chinese character (the search looks for the
# marks, which are fewer, and then behind them)
NEAR = re.compile(f"[,;:!?.](?<=[{HAN}].)")
HALF = re.compile(f"(?<=[{HAN}])([,;:!?])(?=[{HAN}“（《]|\\s*$)|(?<=[{HAN}])(\\.)(?=\\s*$|\\s+[{HAN}])")


class FullwidthPunctuation(Rule):
    """Full-width punctuation in Chinese sentences.

    What:
    A half-width comma, semicolon, colon, exclamation or question mark between Chinese words
    (`吞吐提升,延迟降低`), or a half-width full stop ending a Chinese sentence (`设置的写法.`). Marks
    after Latin text (`e.g.`, `Figure 1:`), decimals and ranges are left alone. Only prose, and not the sister line or the 参考资料
    section (titles cited as their authors write them).
    Auto-fixable: the mark becomes its full-width form (`，` `；` `：` `！` `？` `。`).

    Why:
    Chinese text takes full-width marks, which also carry their own spacing; a half-width one in a
    Chinese sentence sits cramped against the next character.
    """
    code, slug, severity = "TYP003", "fullwidth-punctuation", "warning"
    fixable = True
    family = "TYP"
    reads_only_post = True

    def check(self, post, ctx):
        for line, col, text in own_prose(post, ctx.conv, NEAR):
            if not any(m in text for m in FULL):
                continue
            for m in HALF.finditer(text):
                mark = m.group(0)
                where = col + m.start()
                yield Hit(line, where, f"half-width `{mark}` in a Chinese sentence",
                          [Edit(line, where, where + 1, FULL[mark])], hint=f"write `{FULL[mark]}`")
