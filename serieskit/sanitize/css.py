"""A stylesheet's top-level rules (`blocks`): what `clean_stylesheet` rebuilds a diagram's stylesheet
from; and the rules whose selectors name a class, with the at-rules (`@media`, `@supports`) around
them (`rules_naming`): how the Zensical build carries Material's search-box styles, which Zensical's
own stylesheet lacks (its search is another component), for the site's search box (search.js)."""
from __future__ import annotations


def blocks(css: str):
    """Top-level items of a stylesheet: (prelude, body) for `prelude{body}`, comments skipped."""
    i, n = 0, len(css)
    while i < n:
        if css.startswith("/*", i):
            j = css.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        j = css.find("{", i)
        semi = css.find(";", i)
        if 0 <= semi < j or (j < 0 and semi >= 0):      # `@charset ...;`, `@import ...;`
            i = semi + 1
            continue
        if j < 0:
            return
        depth, k = 1, j + 1
        while k < n and depth:
            c = css[k]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif c in "\"'":
                k = css.find(c, k + 1)
                if k < 0:
                    return
            k += 1
        yield css[i:j].strip(), css[j + 1:k - 1]
        i = k


def _selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside `:is(...)`)."""
    parts, depth, start = [], 0, 0
    for k, c in enumerate(prelude):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(prelude[start:k])
            start = k + 1
    return parts + [prelude[start:]]


def rules_naming(css: str, needle: str) -> str:
    """The rules (and the selectors of a rule) that name `needle`, inside their at-rules."""
    out = []
    for prelude, body in blocks(css):
        if prelude.startswith(("@media", "@supports", "@container", "@layer")):
            inner = rules_naming(body, needle)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        elif not prelude.startswith("@") and needle in prelude:
            out.append(",".join(sel for sel in _selectors(prelude) if needle in sel) + f"{{{body}}}")
    return "".join(out)
