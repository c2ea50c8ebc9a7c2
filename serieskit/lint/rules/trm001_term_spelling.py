import functools
import re

from serieskit.finding import Edit
from serieskit.analysis.prose import cited_lines, line_col, line_segments, word_positions
from . import Hit, Rule

# quoted names: a title in 《》 or in emphasis is cited as its authors spell it
CITED = re.compile(r"《[^》]*》|\*[^*\n]+\*|(?<![A-Za-z0-9])_[^_\n]+_(?![A-Za-z0-9])")


WORD = re.compile(r"[a-z0-9]+")


def deliberate_case(form: str) -> bool:
    """The spelling's case is part of the name: a capital inside a word (`KV`, `vLLM`, `BF16`,
    `veRL`). Otherwise only word-initial capitals can differ (`Rollout` / `rollout`, `All-to-All`
    / `all-to-all`: title case and running text), and both are right."""
    return any(any(c.isupper() for c in tok[1:]) for tok in re.split(r"[\s\-]+", form))


def _key(form: str) -> str:
    return re.sub(r"[\s\-]+", "", form).lower()


@functools.lru_cache(maxsize=32)
def spellings(forms: tuple) -> "Spellings":
    """One Spellings per glossary, keyed by its forms ((term, en, aliases, abbr) of each entry)."""
    return Spellings(forms)


class Spellings:
    """The glossary's Latin spellings (terms, aliases, abbreviations): one regex that finds any of
    them written in another case, spacing or hyphenation, and the spelling each should be."""

    def __init__(self, entries: tuple):
        exact: dict[str, str] = {}
        for term, en, aliases, abbr in entries:
            forms = [term, en, *aliases, *([abbr] if abbr and len(abbr) >= 2 else [])]
            for f in forms:
                if re.search(r"[A-Za-z]", f) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 \-./+]*", f):
                    exact.setdefault(_key(f), f)
        self.exact = {f for term, en, aliases, abbr in entries for f in (term, en, *aliases, abbr) if f}
        self.folded = {f.lower() for f in self.exact}

        self.preferred = exact
        # the first word of each spelling, lower case: a text with none of them holds no spelling
        # the first word of each spelling that can be written wrong (a name of several words, or
        # one whose case is part of it: `Rollout` written `rollout` is right), lower case
        self.first_words = frozenset(WORD.match(f.lower()).group(0) for f in exact.values()
                                     if WORD.match(f.lower()) and (deliberate_case(f) or re.search(r"[\s\-]", f)))
        parts = []
        for f in sorted(set(exact.values()), key=len, reverse=True):
            tokens = [re.escape(t) for t in re.split(r"[\s\-]+", f) if t]
            parts.append(r"[\s\-]?".join(tokens))
        # not a piece of a longer name: `Zero-shot`, `verl-project/verl`, `fully_async_ppo`
        self.regex = (re.compile(r"(?<![A-Za-z0-9_\-/.])(?:" + "|".join(parts) + r")(?![A-Za-z0-9_\-/])", re.I)
                      if parts else None)

    def wrong(self, written: str) -> bool:
        """`written` is one of the glossary's spellings in a form the glossary does not allow."""
        if written in self.exact:
            return False
        want = self.preferred.get(_key(written))
        if want is None or want == written:
            return False
        # only the case differs, and the glossary's case is not part of the name: running text
        return not (written.lower() in self.folded and not deliberate_case(want))


def _all(text: str, part: str):
    k = text.find(part)
    while k >= 0:
        yield k
        k = text.find(part, k + 1)


class TermSpelling(Rule):
    """A glossary term is written as the glossary spells it.

    What:
    In prose, a term, English name, alias or abbreviation of the series' glossary (`glossary.yml`) written in
    another case, spacing or hyphenation: `KV Cache`, `kv-cache` or `kv cache` where the glossary
    says `KV cache`. Spellings the glossary lists (term, English name, each alias) are all right.
    Case counts where the glossary's spelling has a capital inside a word (`KV cache`, `vLLM`,
    `BF16`): it is part of the name. Elsewhere only word-initial capitals can differ, and running
    text may write `rollout` for the glossary's `Rollout`. Only
    prose: not code, links, URLs, math, raw HTML or the frontmatter; not a piece of a longer name
    (`Zero-shot`, `verl-project/verl`); not where names are cited as others spell them (titles in
    `《》` or in emphasis, the titles of the series' posts and planned posts, the sister line, the
    参考资料 section). Auto-fixable: the fix writes the
    glossary's spelling.

    Why:
    The glossary fixes each term's spelling for the series; one term written three ways reads as
    three things, and search, tooltips and the term table match the glossary's spellings.
    """
    code, slug, severity = "TRM001", "term-spelling", "warning"
    fixable = True
    family = "TRM"
    scope = "series"

    def check(self, post, ctx):
        series = ctx.site.series_of(post)
        if series is None or not series.glossary:
            return
        sp = spellings(tuple((e.term, e.en, tuple(e.aliases), e.abbr) for e in series.glossary))
        if sp.regex is None:
            return
        skip = cited_lines(post, ctx.conv)
        titles = None
        for line, col, text, m in self._matches(post, sp):
            if line in skip:
                continue
            written = m.group(0)
            want = sp.preferred[_key(written)]
            if titles is None:
                titles = [p.title for p in ctx.site.series_posts(series.slug)] + [pl.title for pl in series.planned]
            cited = [c.span() for c in CITED.finditer(text)]
            cited += [(k, k + len(t)) for t in titles if t and t in text for k in _all(text, t)]
            if not any(a <= m.start() < b for a, b in cited):
                where = col + m.start()
                yield Hit(line, where, f"`{written}` is spelt `{want}` in the series' glossary",
                          [Edit(line, where, where + len(written), want)], hint=f"write `{want}`")

    @staticmethod
    def _matches(post, sp):
        """Each spelling of the post's prose that the glossary does not list: (line, segment
        column, segment text, match in the segment). The spelling regex is tried only where a word
        that starts one of the glossary's spellings begins (serieskit/analysis/prose.py word_positions);
        the prose of a line is read only for a spelling the glossary does not list."""
        end = -1
        for k in word_positions(post, sp.first_words):
            if k < end:
                continue
            m = sp.regex.match(post.text, k)
            if m is None:
                continue
            end = m.end()
            if not sp.wrong(m.group(0)):
                continue
            line, col = line_col(post, k)
            if line < post.body_start:
                continue
            for seg_col, text in line_segments(post, line):
                if seg_col <= col < seg_col + len(text):
                    inner = sp.regex.match(text, col - seg_col)
                    if inner is not None and inner.group(0) == m.group(0):
                        yield line, seg_col, text, inner
                    break
