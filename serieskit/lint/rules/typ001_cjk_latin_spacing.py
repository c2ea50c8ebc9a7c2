import re

import autocorrect_py

from serieskit.finding import Edit
from serieskit.analysis.prose import own_prose
from . import Hit, Rule

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
LATIN = "A-Za-z0-9"
# where Chinese meets a Latin letter or a digit with nothing between (the cheap test before autocorrect)
TOUCH = re.compile(f"[{HAN}][{LATIN}]|[{LATIN}][{HAN}]")
IS_HAN = re.compile(f"[{HAN}]")
# the lines to read: TOUCH as a search that looks for the Latin side first, then around it
TOUCHING = re.compile(f"[{LATIN}](?:(?<=[{HAN}].)|(?=[{HAN}]))")


def missing_spaces(text: str) -> list[int]:
    """The offsets in `text` where autocorrect (the CJK copywriting formatter) puts a space between a
    Chinese character and a Latin letter or digit. Its other changes belong to other rules or to
    none (it also drops spaces around Chinese quotes, which this series keeps)."""
    if not TOUCH.search(text):
        return []
    new = autocorrect_py.format(text)
    out, i, j = [], 0, 0
    while i < len(text) and j < len(new):
        if text[i] == new[j]:
            i, j = i + 1, j + 1
        elif new[j] == " " and 0 < i and _between(text[i - 1], text[i]):
            out.append(i)
            j += 1
        else:                  # another kind of change: realign on the next equal character
            return out + _rest(text, i)
    return out


def _between(a: str, b: str) -> bool:
    return (bool(IS_HAN.match(a)) and b.isascii() and b.isalnum()) or (a.isascii() and a.isalnum() and bool(IS_HAN.match(b)))


def _rest(text: str, start: int) -> list[int]:
    return [m.start() + 1 for m in TOUCH.finditer(text, max(start - 1, 0))
            if missing_spaces(text[m.start():m.end()]) == [1]]


class CjkLatinSpacing(Rule):
    """One space between Chinese and Latin letters or digits.

    What:
    Prose where a Chinese character touches a Latin letter or a digit (`以vLLM框架`, `提升2.5倍`), as
    autocorrect, the CJK copywriting formatter, finds it. Only prose: not code spans, fences, math,
    links, URLs, raw HTML or the frontmatter. Auto-fixable: the fix inserts the space.

    Why:
    The series writes `以 vLLM 框架`, `提升 2.5 倍`: a space sets the scripts apart and reads evenly; a
    post that sometimes does and sometimes does not looks careless.
    """
    code, slug, severity = "TYP001", "cjk-latin-spacing", "warning"
    fixable = True
    family = "TYP"
    reads_only_post = True

    def check(self, post, ctx):
        for line, col, text in own_prose(post, ctx.conv, TOUCHING):
            for k in missing_spaces(text):
                pair = text[k - 1:k + 1]
                other = pair[1] if IS_HAN.match(pair[0]) else pair[0]
                where = col + k
                yield Hit(line, where, f"`{pair}`: no space between Chinese and {'a digit' if other.isdigit() else 'Latin text'}",
                          [Edit(line, where, where, " ")], hint=f"write `{pair[0]} {pair[1]}`")
