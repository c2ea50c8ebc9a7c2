"""The engine's fast paths give exactly what the plain versions give.

Parsing is on the hot path of lint, build and serve, so a few steps take shortcuts: libyaml for
frontmatter (falling back to the pure-Python parser on any error or known difference), and SEC001
skipping its slow attribute pattern when no `=` can start a script URL and trying its link pattern
only where it can start. (The inline-code masker
pairs backticks as Python-Markdown does; tests/test_engine.py checks it against Python-Markdown.) Each shortcut is compared here with the plain version on the repository's posts and
fixtures and on a deterministic corpus of awkward inputs.
"""
import random
import re

import pytest

from support.project import ROOT
from serieskit.parse import frontmatter as F
from serieskit.lint.rules import sec001_unsafe_html as S

POSTS = sorted(p for p in ROOT.glob("**/*.md") if "node_modules" not in p.parts and ".bench" not in p.parts)


def _summary(fm):
    err = (fm.error.line, fm.error.column, fm.error.message) if fm.error else None
    return fm.data, fm.start, fm.end, fm.key_pos, fm.value_pos, fm.duplicate_keys, err


def _frontmatter_corpus(n: int):
    keys = ["title", "slug", "date", "updated", "tags", "summary", "order", "series", "status", "标题", "x y", "'q'"]
    vals = ["x", '"a b"', "'it''s'", "2026-01-01", "2026-13-45", "[a, b]", "[a, {b: c}]", "{a: 1}", "17", "1.5", "yes",
            "off", "~", "", "|\n  line one\n  line two", ">-\n  folded", "\n  - a\n  -\n  - c", "&x 1", "*x", "*nope",
            "!!str 5", "!!int x", "中文：冒号", '"\\u00e9\\n"', "a # comment", '"multi\n  line"', "[\n  a,\n  b]",
            "[a, b", "{a: [1, 2}", "'open", "\tx", "x\ty", "\x07", "@x", "`x", "a: b", "- x"]
    extra = ["? x", ": y", "- y", "\tk: v", "  k: v", "...", "#c", "", "<<: {a: 1}", "%YAML 1.1"]
    r = random.Random(2026)
    for _ in range(n):
        body = []
        for _ in range(r.randrange(1, 7)):
            if r.random() < 0.15:
                body.append(r.choice(extra))
                continue
            v = r.choice(vals)
            body.append(f"{r.choice(keys)}:{' ' if v and not v.startswith(chr(10)) else ''}{v}")
        yield ["---", *"\n".join(body).split("\n"), "---", "text"]


@pytest.mark.skipif(F._FastLoader is F._Loader, reason="PyYAML without libyaml: there is no fast path to compare")
def test_libyaml_frontmatter_equals_the_pure_python_parse():
    cases = [p.read_bytes().decode("utf-8-sig", "replace").split("\n") for p in POSTS]
    cases += list(_frontmatter_corpus(4000))
    fast_used = 0
    for lines in cases:
        fast = F._parse(lines, F._FastLoader)
        slow = F._parse(lines, F._Loader)
        fast_used += fast is not None and fast.error is None
        assert _summary(F.parse(lines)) == _summary(slow), lines
    assert fast_used > 1000   # the fast path is really taken for ordinary frontmatter


def test_control_character_in_frontmatter_is_a_finding_not_a_crash():
    fm = F.parse(["---", "title: 'a\x07b'", "slug: x", "---"])
    assert fm.error is not None and (fm.error.line, fm.error.column) == (2, 10)
    assert "U+0007" in fm.error.message


def test_sec001_shortcut_finds_what_the_full_pattern_finds():
    frags = ["[a](", "](", "]: ", "<", "<a ", "href", "HREF", "src", "data", " = ", "=", "'", '"', "javascript:", "JaVa",
             "script", ":", "&#106;", "&#x6a;", "&colon;", "&tab;", "\t", "\n", " ", "vbscript:", "data:text/html", "x",
             "中文", "onclick=", "{: ", "}", ">", "ſ", "javaſcript:", "jav\nascript:", "j", "&"]
    r = random.Random(3)
    hits = 0
    for _ in range(30000):
        text = "".join(r.choice(frags) for _ in range(r.randrange(1, 14)))
        full = [m.start("scheme") for m in S.url_context().finditer(text)]
        attr = S.attribute_url_possible(text)
        assert attr == ("=" in text and any(S.SCHEME_AFTER_EQUALS.match(text, i + 1) for i in S._positions(text, "=")))
        fast = [m.start("scheme") for m in (S.url_context() if attr else S.LINK_URL_CONTEXT).finditer(text)]
        hits += bool(full)
        assert fast == full == S.script_urls(text) == S.script_urls(text, fast=False), text
    assert hits > 1000


def test_glossary_regex_equals_the_plain_lookbehind_form():
    from serieskit.model.loader import load_site
    from serieskit.render.post import GlossaryMatcher, _ascii_ci
    site = load_site(ROOT)
    entries = [e for s in site.series.values() for e in s.glossary]
    m = GlossaryMatcher(entries)
    parts = []
    for f in sorted(m.forms, key=len, reverse=True):   # the plain form of the same pattern
        p = re.escape(f)
        if re.match(r"[A-Za-z0-9]", f):
            p = r"(?<![A-Za-z0-9_])" + p
        if re.search(r"[A-Za-z0-9]$", f):
            p = p + r"(?![A-Za-z0-9_])"
        parts.append("(?i:" + p + ")" if _ascii_ci(f) else p)
    plain = re.compile("|".join(parts))
    lines = [p.prose(n) for p in site.posts for n in range(p.body_start, p.nlines + 1)]
    lines += ["xTP", "TPx", "_TP", "TP_", "(TP)", "tp", "Tp", "EAGLE-3x", "eagle-3", "首字延迟TTFT", "\u017fpeculative"]
    found = 0
    for line in lines:
        a = [(x.start(), x.group()) for x in m.regex.finditer(line)]
        assert a == [(x.start(), x.group()) for x in plain.finditer(line)], line
        found += len(a)
    assert found > 500


def test_tooltip_marks_give_the_same_html_as_inline_abbr_tags(monkeypatch):
    """Marks through Markdown with the site's extensions (serieskit/publish/mdext.py turns them into <abbr>)
    == raw <abbr> tags through Markdown, on every real post."""
    import markdown
    from mkdocs.config import load_config
    from serieskit.render import post as render
    from serieskit.model.loader import load_site
    cfg = load_config(str(ROOT / "mkdocs.yml"))
    md = markdown.Markdown(extensions=cfg["markdown_extensions"], extension_configs=cfg["mdx_configs"])
    site = load_site(ROOT)
    checked = 0
    for post in site.posts:
        marked = render.render_post(post, site)
        with monkeypatch.context() as mp:
            mp.setattr(render, "TIP_MAX", 0)          # too many entries for marks: inline <abbr> tags
            inline = render.render_post(post, site)
        assert "<abbr" not in marked.markdown and not inline.tooltips
        md.reset()
        a = md.convert(marked.markdown)
        assert render.TIP_OPEN not in a and "series-tooltips" not in a, post.rel
        md.reset()
        b = md.convert(inline.markdown)
        assert a == b, post.rel
        checked += len(marked.tooltips)
    assert checked > 100


def test_manifest_and_glossary_yaml_fast_path_equals_pure_python():
    import yaml as _yaml
    from serieskit.model import loader
    files = [p for p in ROOT.glob("**/*.yml") if "node_modules" not in p.parts and ".bench" not in p.parts
             and p.parent.parent.name == "series"]
    assert len(files) >= 4
    for p in files:
        text = p.read_text(encoding="utf-8-sig")
        try:
            slow = loader._yaml_lines_with(_yaml.SafeLoader, text)
        except (_yaml.YAMLError, ValueError):
            continue   # an error: the fast path falls back to the same loader
        assert loader._yaml_lines(text) == slow, p


# --- the body parser: the plain-line fast path and the inline-code shortcut -----------------------------------
MD_FRAGMENTS = ["```", "```mermaid", "~~~", "````", "- ", "* ", "1. ", "> ", "    ", "\t", "# ", "## 一、", "|", "| a | b |",
                "|---|---|", "![图](assets/fig.svg)", "  ", "\\", "`", "``", "```x```", "<!--", "-->", "--!>", "<div>",
                "</div>", "<div markdown>", "<p>", "<hr>", "[a](b.md)", "[a]: b.md", "<", ">", "[", "]", "(", ")",
                "正文", "text", "=", "_", ":", "!", "- - - - ", "***", "\\`", "-->x", "<!-->"]


# Cases the generated corpus is unlikely to hit: Python-Markdown resuming its scan for code spans
# 2*M characters after a literal opener, i.e. a few characters into the next line, whose backticks
# then pair up differently (the fast path must leave such a line to the full path).
HAND_BODIES = [["a ````", "y `x` z", "`````"], ["a ``", "y `x` z `w`", "```"], ["a ~ b `c`", "d --> e `f`", "g --!> h"]]


def _markdown_corpus(n: int):
    r = random.Random(7)
    for _ in range(n):
        lines = []
        for _ in range(r.randrange(1, 25)):
            k = r.randrange(0, 5)
            lines.append("" if k == 0 else "".join(r.choice(MD_FRAGMENTS) for _ in range(k)))
        yield lines


def test_body_parser_fast_paths_equal_the_full_path():
    """parse_body(fast=True) takes blank and plain prose lines (and even-backtick lines) by a shortcut;
    fast=False sends every line down the full path. Both give the same Body on every post of the
    repository (fixtures included) and on 3,000 awkward generated bodies."""
    from serieskit.parse.markdown import parse_body
    corpus = [p.read_bytes().decode("utf-8", "replace").split("\n") for p in POSTS]
    corpus += list(_markdown_corpus(3000)) + HAND_BODIES
    shortcut_used = 0
    for lines in corpus:
        fast, full = parse_body(lines, 1), parse_body(lines, 1, fast=False)
        assert fast == full, "\n".join(lines)
        shortcut_used += bool(fast.prose)
    assert shortcut_used > 1000


def _reference_answers(lines: list[str], first: int) -> list:
    """What the parser asks the Lookahead, answered by scanning the lines after each one (its definition)."""
    from serieskit.parse.inline import BACKTICKS
    from serieskit.parse.syntax import FENCE_CLOSE
    n, start = len(lines), max(first - 1, 0)
    blank = [not line or line.isspace() for line in lines]
    runs = [{len(r) for r in BACKTICKS.findall(line)} for line in lines]

    def next_blank(i):
        return next((j for j in range(max(i, start), n) if blank[j]), n)

    def closing(i, marker):
        return any((m := FENCE_CLOSE.match(lines[j])) and m.group(1)[0] == marker[0] and len(m.group(1)) >= len(marker)
                   for j in range(max(i + 1, start), n))

    def comment(i, inline):
        close = next((j for j in range(i + 1, n) if "-->" in lines[j] or "--!>" in lines[j]), n)
        opener = next((j for j in range(i + 1, n) if "<!--" in lines[j]), n)
        return close < n and (not inline or (close < next_blank(i + 1) and not opener < close))

    out = []
    for i in range(start, n):
        out.append((i, next_blank(i), max((max(runs[j], default=0) for j in range(i, next_blank(i))), default=0),
                    [closing(i, m) for m in ("```", "````", "~~~", "~~~~")],
                    [any(k in runs[j] for j in range(i + 1, next_blank(i + 1))) for k in (1, 2, 3, 4)],
                    comment(i, False), comment(i, True)))
    return out


def test_lookahead_answers_what_a_scan_of_the_later_lines_finds():
    """The Lookahead keeps only the lines that matter and answers by binary search; on every post of the
    repository and 3,000 generated bodies its answers are those of scanning the later lines."""
    from serieskit.parse.inline import Lookahead
    corpus = [p.read_bytes().decode("utf-8", "replace").split("\n") for p in POSTS]
    corpus += list(_markdown_corpus(3000))
    for k, lines in enumerate(corpus):
        first = 1 + k % 3
        la = Lookahead(lines, first)
        got = [(i, la.next_blank(i), la.para_longest(i), [la.closing_fence_after(i, m) for m in ("```", "````", "~~~", "~~~~")],
                [la.run_later_in_paragraph(i, length) for length in (1, 2, 3, 4)],
                la.comment_closes_later(i, False), la.comment_closes_later(i, True))
               for i in range(max(first - 1, 0), len(lines))]
        assert got == _reference_answers(lines, first), "\n".join(lines)


def test_bracket_pairs_found_with_find_equal_the_escape_aware_regex_scan():
    """markdown._matches finds brackets with str.find and skips those after an odd run of backslashes;
    the plain definition scans with `\\\\.|[()]` (an escape eats the next character)."""
    from serieskit.parse.inline import _matches

    def plain(s, opener, closer):
        stack, out = [], {}
        for m in re.finditer(r"\\.|[" + re.escape(opener + closer) + "]", s, re.S):
            if m.group() == opener:
                stack.append(m.start())
            elif m.group() == closer and stack:
                out[stack.pop()] = m.start()
        return out

    r = random.Random(11)
    for _ in range(20000):
        s = "".join(r.choice("[]()\\\\x中 ") for _ in range(r.randrange(0, 16)))
        for pair in ("[]", "()"):
            assert _matches(s, *pair) == plain(s, *pair), s


def test_heading_shortcut_equals_the_heading_pattern():
    from serieskit.parse.syntax import heading
    r = random.Random(5)
    parts = ["#", "##", "###", "#######", " ", "  ", "\t", "x", "标题", "\u3000", "# ", " #", "\\#", "`"]
    shortcut = 0
    for _ in range(30000):
        s = "".join(r.choice(parts) for _ in range(r.randrange(0, 7)))
        assert heading(s) == heading(s, fast=False), repr(s)
        shortcut += s[-1:] not in ("#", " ", "\t", "") and heading(s) is not None
    assert shortcut > 1000


def _typography_corpus(n: int) -> list[str]:
    pieces = ["中", "文", "㐀", "豈", "a", "Z", "7", " ", ",", ".", ";", "?", "：", "“", "”", "\n", "\r\n", "$$", "`", "é", "-"]
    r = random.Random(2026)
    return ["".join(r.choice(pieces) for _ in range(r.randrange(0, 40))) for _ in range(n)]


def test_typography_prefilters_pick_the_lines_their_plain_patterns_pick():
    """TYP001 and TYP003 look for their candidate lines with patterns that search from the rarer side
    (serieskit/analysis/prose.py candidate_lines goes on from the next line after each match): each
    picks the lines the plain two-character pattern picks."""
    from serieskit.analysis.prose import candidate_lines
    from serieskit.lint.rules import typ001_cjk_latin_spacing as t1, typ003_fullwidth_punctuation as t3
    from serieskit.model.site import Post
    near = re.compile(f"[{t3.HAN}][,;:!?.]")
    texts = [p.read_bytes().decode("utf-8", "replace") for p in POSTS if "series" in p.parts][:40] + _typography_corpus(3000)
    for text in texts:
        post = Post(ROOT, ROOT / "series" / "x" / "t.md", ("---\ntitle: 中A\n---\n" + text).encode())
        lines = list(enumerate(post.text.split("\n"), 1))[post.body_start - 1:]
        assert candidate_lines(post, t1.TOUCHING) == [n for n, line in lines if t1.TOUCH.search(line)], text
        assert candidate_lines(post, t3.NEAR) == [n for n, line in lines if near.search(line)], text


def test_word_positions_found_at_once_equal_a_search_for_each_word():
    """TRM001 finds where a glossary spelling can start with one Aho–Corasick pass over the lower-cased
    text (serieskit/analysis/prose.py word_positions): the offsets a plain search for each word gives,
    kept where no Latin letter, digit or `_` comes just before; offsets in the post's own text (a
    character whose lower case is longer, `İ`, does not shift them)."""
    from serieskit.analysis.prose import word_positions
    from serieskit.model.site import Post

    def plain(text: str, words) -> list[int]:   # offsets in the post's own text, whatever lower case does to it
        return sorted(k for w in words for k in range(len(text)) if text[k:k + len(w)].lower() == w
                      and (k == 0 or not (text[k - 1].isascii() and (text[k - 1].isalnum() or text[k - 1] == "_"))))

    r = random.Random(2026)
    alphabet = ["a", "b", "A", "B", "k", "v", "K", "V", "1", "_", "-", " ", "中", "文", "\n", "é", "İ", "ǅ", "/"]
    vocab = ["a", "ab", "aba", "kv", "kvkv", "v1", "b", "ba"]
    for _ in range(2000):
        text = "".join(r.choice(alphabet) for _ in range(r.randrange(0, 40)))
        words = frozenset(r.sample(vocab, r.randrange(0, 4)))
        post = Post(ROOT, ROOT / "series" / "x" / "t.md", text.encode())
        assert word_positions(post, words) == plain(post.text, words), (text, words)
