import re

from serieskit.finding import Finding
from . import Rule


class OutputGate(Rule):
    """What the page would carry is not on the site's allow-list: the build took it out.

    What:
    Every page the build writes (and every feed entry and every drawn diagram and formula) passes
    one allow-list sanitizer after rendering: the tags, attributes, styles and URL schemes the site's
    Markdown extensions, KaTeX and mermaid produce. Anything else in the rendered HTML (a script, an
    event handler, a `javascript:` link, a `<style>` or `<meta>`, a `style` with `url(…)` or
    `position: fixed`, a Pagefind attribute, SVG animation) is removed, and this finding names it with
    the line of the post where it can be traced. A strict build fails; any build publishes the
    sanitized page, never the raw one.

    Why:
    SEC001 reads the Markdown source and warns early, but only the rendered output says what a
    reader's browser will get: this check looks at what Python-Markdown actually wrote, so a
    difference between the two parsers cannot let markup through. It cannot be suppressed or switched
    off by a post or a series manifest.

    """
    code, slug, severity = "SEC003", "sanitized-output", "error"
    family = "SEC"

    def check(self, post, ctx):
        return ()   # the rendered page is checked by the host after conversion: gate_findings()


def line_of(raw: str, needle: str, start_line: int = 1) -> tuple[int, int]:
    """The first line (and column) of `raw` holding `needle` (case-insensitive), else (1, 1)."""
    if needle:
        m = re.search(re.escape(needle), raw, re.I)
        if m:
            line = raw.count("\n", 0, m.start()) + 1
            return line, m.start() - (raw.rfind("\n", 0, m.start()) + 1) + 1
    return start_line, 1


def gate_findings(path: str, raw: str, removed) -> list[Finding]:
    """One SEC003 per removed element or attribute (`sanitize.Removal`), at the source line it came from."""
    out, seen = [], set()
    for r in removed:
        if r.describe() in seen:
            continue
        seen.add(r.describe())
        line, col = line_of(raw, r.needle)
        out.append(Finding(path, line, col, OutputGate.code, OutputGate.severity,
                           f"the rendered page carries {r.describe()}, which the site's allow-list does not allow: "
                           f"it was removed", hint="write Markdown, or HTML the site allows (see the 写作规范 page)"))
    return out
