import re
from functools import cache

from . import Hit, Rule
from serieskit.analysis.mermaid import mermaid_fences


# An encoded control character or space (code 0-32): decimal or hex, leading zeros, `;` optional.
_CONTROL_REF = r"&#0*(?:3[0-2]|[12]?[0-9])(?![0-9]);?|&#x0*(?:20|1[0-9a-f]|[0-9a-f])(?![0-9a-f]);?"


def _obfuscated(word: str) -> str:
    """A pattern for `word` whose characters may be entity-encoded (with or without the `;`) and
    split by whitespace, control characters or encoded ones (browsers drop leading C0 controls and
    spaces from a URL, and tabs and newlines anywhere in it). Meant for re.I: letters match either
    case, and so do hex digits."""
    gap = rf"(?:[\s\x00-\x1f]|{_CONTROL_REF}|&(?:tab|newline);)*"
    parts = []
    for ch in word:
        codes = sorted({ord(ch), ord(ch.upper())}) if ch.isalpha() else [ord(ch)]
        alts = [re.escape(ch),
                r"&#0*(?:" + "|".join(str(c) for c in codes) + r")(?![0-9]);?",
                r"&#x0*(?:" + "|".join(f"{c:x}" for c in codes) + r")(?![0-9a-f]);?"]
        if ch == ":":
            alts.append("&colon;")
        parts.append("(?:" + "|".join(alts) + ")")
    return gap + gap.join(parts)


SCHEME = _obfuscated("javascript:") + "|" + _obfuscated("vbscript:") + "|" + _obfuscated("data:text/html")
_LINK_CONTEXT = r"\]\(\s*<?|\]:[ \t]*<?|<(?=[\s\x00-\x1f&a-z]*(?:j|v|d|&))"
_ATTR_CONTEXT = r"\b(?:href|src|action|formaction|xlink:href|data|poster|background|srcdoc|cite)\s*=\s*[\"']?"


# Each pattern that holds SCHEME is costly to compile, on every run of the linter: the two that
# few posts need are compiled when one does (url_context(), diagram_click()).
@cache
def url_context() -> re.Pattern:
    """A script URL in a link or an attribute."""
    return re.compile(r"(?:" + _LINK_CONTEXT + "|" + _ATTR_CONTEXT + r")(?P<scheme>" + SCHEME + ")", re.I)


# The attribute branch is slow under re.I (tried at every word boundary) and can only match where an
# `=` is followed by a scheme: an anchored match after each `=` decides whether it is needed at all.
# Without it the pattern finds exactly the same matches (the two branches start with different
# characters, so neither can hide a match of the other).
LINK_URL_CONTEXT = re.compile(r"(?:" + _LINK_CONTEXT + r")(?P<scheme>" + SCHEME + ")", re.I)
SCHEME_AFTER_EQUALS = re.compile(r"\s*[\"']?(?:" + SCHEME + ")", re.I)
# (and a scheme after an `=` starts, past blanks, quotes and control characters, with its first
# letter or an entity: this short pattern rules out most `=` before the long one is tried)
SCHEME_START_AFTER_EQUALS = re.compile(r"[\s\x00-\x1f\"']*[jvd&]", re.I)
TAG = re.compile(r"<\s*/?\s*(?P<tag>script|iframe|frame|frameset|object|embed)(?=[\s/>]|$)", re.I)
# a tag name is anything up to whitespace, `/` or `>` (`<scr[a]: onclick=…>` is an element to a browser)
HANDLER = re.compile(r"<[A-Za-z][^\s/>]*(?:\s+[^<>]*?)??[\s/\"'](?P<attr>on[a-z]+)\s*=", re.I | re.S)
# a diagram's `click A href "javascript:…"` (links inside labels are attributes, found above); only a
# line that CLICK starts can hold one
CLICK = re.compile(r"^\s*click\s", re.I)


@cache
def diagram_click() -> re.Pattern:
    return re.compile(CLICK.pattern + r""".*?["'](?P<scheme>""" + SCHEME + ")", re.I)


ATTR_LIST_HANDLER = re.compile(r"\{[^{}\n]*?(?<![\w-])(?P<attr>on[a-z]+)\s*=", re.I)


class UnsafeHtml(Rule):
    """No script, event handler, javascript: URL or iframe in a post.

    What:
    A post contains a raw `<script>` (any case, even with the tag split over lines), an inline
    event handler on any element (`onclick=`, `onerror=`, … also in a `{: attr list }`), a
    `javascript:` / `vbscript:` / `data:text/html` URL in a link or attribute (also when
    entity-encoded or split by whitespace), or an `<iframe>` / `<frame>` / `<object>` / `<embed>`.
    The same text inside code spans, code fences or HTML comments is not reported, except in a
    mermaid diagram: its labels are HTML (`htmlLabels`), so a diagram's source is checked like
    prose, and a script URL in its `click … href` is reported too.

    Why:
    Posts are content, not code: the site ships a strict Content-Security-Policy, and a script in a
    post would either break under it or, worse, run on every reader's machine.
    """
    code, slug, severity = "SEC001", "unsafe-html", "error"
    family = "SEC"

    def check(self, post, ctx):
        # prose (code and comments blanked out), except in raw HTML blocks, where backticks are no code spans
        raw_html, prose = post.body.raw_html, post.body.prose
        diagram = {n for f in mermaid_fences(post) for n in range(f.start + 1, f.end or post.nlines + 1)}
        lines = range(post.body_start, post.nlines + 1)
        texts = [prose.get(ln, "") for ln in lines]
        for ln, raw in raw_html.items():       # (a few lines: set them after, not test every line)
            if raw and ln in lines:
                texts[ln - lines.start] = raw
        for ln in diagram:
            if ln in lines:
                texts[ln - lines.start] = post.line(ln)
        text = "\n".join(texts)
        if not any(c in text for c in "<:&{") or not text:
            return
        starts = []

        def where(offset: int) -> tuple[int, int]:
            if not starts:
                pos = 0
                for ln, t in zip(lines, texts):
                    starts.append((pos, ln))
                    pos += len(t) + 1
            lo, hi = 0, len(starts) - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if starts[mid][0] <= offset:
                    lo = mid
                else:
                    hi = mid - 1
            base, ln = starts[lo]
            return ln, offset - base + 1

        seen = set()
        for m in TAG.finditer(text):
            tag = m.group("tag").lower()
            if m.group(0).lstrip("<").lstrip().startswith("/"):
                continue
            ln, col = where(m.start())
            seen.add((ln, col))
            what = "a raw <script>" if tag == "script" else f"an <{tag}>"
            yield Hit(ln, col, f"{what} in a post",
                      hint="posts carry no active content (use a code span to show it)")
        for rx in (HANDLER, ATTR_LIST_HANDLER):
            for m in rx.finditer(text):
                ln, col = where(m.start("attr"))
                if (ln, col) in seen:
                    continue
                seen.add((ln, col))
                yield Hit(ln, col, f"inline event handler `{m.group('attr')}=`", hint="posts carry no scripts")
        for start in script_urls(text):
            ln, col = where(start)
            if (ln, col) in seen:
                continue
            seen.add((ln, col))
            yield Hit(ln, col, "a script URL (`javascript:` or similar, possibly encoded)",
                      hint="link a page or file instead")
        for n in sorted(diagram):
            if not CLICK.match(post.line(n)):
                continue
            for m in diagram_click().finditer(post.line(n)):
                col = m.end() - len(m.group("scheme").lstrip()) + 1
                if (n, col) not in seen:
                    seen.add((n, col))
                    yield Hit(n, col, "a script URL (`javascript:` or similar) in a diagram",
                              hint="link a page or file instead")


def script_urls(text: str, fast: bool = True) -> list[int]:
    """Where each script URL's scheme starts in `text`: url_context()'s matches (`fast=False`: found
    with it). Unless an attribute can hold one, LINK_URL_CONTEXT finds the same; it can only start
    at a `]` or a `<`, so it is tried there (finditer would try it at every character)."""
    if not fast or attribute_url_possible(text):
        return [m.start("scheme") for m in url_context().finditer(text)]
    out, end = [], 0
    for i in sorted([*_positions(text, "]"), *_positions(text, "<")]):
        if i >= end and (m := LINK_URL_CONTEXT.match(text, i)):
            out.append(m.start("scheme"))
            end = m.end()
    return out


def attribute_url_possible(text: str) -> bool:
    """Whether url_context()'s attribute branch can match: some `=` is followed by a scheme."""
    return "=" in text and any(SCHEME_START_AFTER_EQUALS.match(text, i + 1) and SCHEME_AFTER_EQUALS.match(text, i + 1)
                               for i in _positions(text, "="))


def _positions(text: str, ch: str):
    i = text.find(ch)
    while i >= 0:
        yield i
        i = text.find(ch, i + 1)
