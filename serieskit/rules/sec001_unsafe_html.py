import re

from . import Hit, Rule


def _obfuscated(word: str) -> str:
    """A pattern for `word` whose characters may be entity-encoded and split by whitespace,
    control characters or encoded tabs / newlines (all of which browsers ignore in a URL scheme)."""
    gap = r"(?:[\s\x00-\x1f]|&#0*(?:9|10|13);|&#x0*(?:9|a|d);|&(?:tab|newline);)*"
    parts = []
    for ch in word:
        code = ord(ch)
        alts = [re.escape(ch)]
        if ch.isalpha():
            alts.append(re.escape(ch.upper()))
            alts.append(rf"&#0*{ord(ch.upper())};")
            alts.append(rf"&#x0*{ord(ch.upper()):x};")
        alts.append(rf"&#0*{code};")
        alts.append(rf"&#x0*{code:x};")
        if ch == ":":
            alts.append("&colon;")
        parts.append("(?:" + "|".join(alts) + ")")
    return gap + gap.join(parts)


SCHEME = _obfuscated("javascript:") + "|" + _obfuscated("vbscript:") + "|" + _obfuscated("data:text/html")
_LINK_CONTEXT = r"\]\(\s*<?|\]:[ \t]*<?|<(?=[\s\x00-\x1f&a-z]*(?:j|v|d|&))"
_ATTR_CONTEXT = r"\b(?:href|src|action|formaction|xlink:href|data|poster|background|srcdoc|cite)\s*=\s*[\"']?"
URL_CONTEXT = re.compile(r"(?:" + _LINK_CONTEXT + "|" + _ATTR_CONTEXT + r")(?P<scheme>" + SCHEME + ")", re.I)
# The attribute branch is slow under re.I (tried at every word boundary) and can only match where an
# `=` is followed by a scheme: an anchored match after each `=` decides whether it is needed at all.
# Without it the pattern finds exactly the same matches (the two branches start with different
# characters, so neither can hide a match of the other).
LINK_URL_CONTEXT = re.compile(r"(?:" + _LINK_CONTEXT + r")(?P<scheme>" + SCHEME + ")", re.I)
SCHEME_AFTER_EQUALS = re.compile(r"\s*[\"']?(?:" + SCHEME + ")", re.I)
TAG = re.compile(r"<\s*/?\s*(?P<tag>script|iframe|frame|frameset|object|embed)(?=[\s/>]|$)", re.I)
HANDLER = re.compile(r"<[A-Za-z][\w:-]*(?:\s+[^<>]*?)??[\s/\"'](?P<attr>on[a-z]+)\s*=", re.I | re.S)
ATTR_LIST_HANDLER = re.compile(r"\{[^{}\n]*?(?<![\w-])(?P<attr>on[a-z]+)\s*=", re.I)


class UnsafeHtml(Rule):
    """No script, event handler, javascript: URL or iframe in a post.

    What:
    A post contains a raw `<script>` (any case, even with the tag split over lines), an inline
    event handler on any element (`onclick=`, `onerror=`, … also in a `{: attr list }`), a
    `javascript:` / `vbscript:` / `data:text/html` URL in a link or attribute (also when
    entity-encoded or split by whitespace), or an `<iframe>` / `<frame>` / `<object>` / `<embed>`.
    The same text inside code spans, code fences or HTML comments is not reported.

    Why:
    Posts are content, not code: the site ships a strict Content-Security-Policy, and a script in a
    post would either break under it or, worse, run on every reader's machine.

    Bad:
    <img src="x.png" onerror="alert(1)">
    [点我](javascript:alert(1))
    <iframe src="https://example.com"></iframe>

    Good:
    ![图](assets/x.svg)
    `<script>` 标签在代码里写就没问题
    """
    code, slug, severity = "SEC001", "unsafe-html", "error"
    family = "SEC"

    def check(self, post, ctx):
        prose = post.body.prose
        lines = range(post.body_start, post.nlines + 1)
        text = "\n".join([prose.get(ln, "") for ln in lines])
        if not any(c in text for c in "<:&{") or not text:
            return
        starts = []

        def where(offset: int) -> tuple[int, int]:
            if not starts:
                pos = 0
                for ln in lines:
                    starts.append((pos, ln))
                    pos += len(prose.get(ln, "")) + 1
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
            yield Hit(ln, col, f"{what} in a post; posts carry no active content (use a code span to show it)")
        for rx in (HANDLER, ATTR_LIST_HANDLER):
            for m in rx.finditer(text):
                ln, col = where(m.start("attr"))
                if (ln, col) in seen:
                    continue
                seen.add((ln, col))
                yield Hit(ln, col, f"inline event handler `{m.group('attr')}=`; posts carry no scripts")
        attr = "=" in text and any(SCHEME_AFTER_EQUALS.match(text, i + 1) for i in _positions(text, "="))
        for m in (URL_CONTEXT if attr else LINK_URL_CONTEXT).finditer(text):
            ln, col = where(m.start("scheme"))
            if (ln, col) in seen:
                continue
            seen.add((ln, col))
            yield Hit(ln, col, "a script URL (`javascript:` or similar, possibly encoded); link a page or file instead")


def _positions(text: str, ch: str):
    i = text.find(ch)
    while i >= 0:
        yield i
        i = text.find(ch, i + 1)
