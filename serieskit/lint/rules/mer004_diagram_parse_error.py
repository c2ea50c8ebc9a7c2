import re

from serieskit.finding import Finding
from . import Rule

ON_LINE = re.compile(r"on line (\d+)")


class DiagramParseError(Rule):
    """A mermaid diagram does not parse: the build cannot draw it.

    What:
    The build draws every diagram with the site's pinned mermaid. A diagram mermaid cannot parse is
    reported here with mermaid's own message, at the line of the fence it names; the page shows the
    diagram's source instead. A strict build fails.

    Why:
    Without this, the reader's browser would be the first to find the error.

    """
    code, slug, severity = "MER004", "diagram-parse-error", "error"
    family = "MER"

    def check(self, post, ctx):
        return ()   # drawn by the host's build (serieskit/draw): diagram_finding()


def source_lines(raw: str, source: str) -> list[int]:
    """The line of `raw` each line of a diagram's `source` stands on. The build adds lines to a
    diagram (the palette's classDef lines): those take the line of the author's line before them."""
    lines = raw.split("\n")
    src = source.rstrip("\n").split("\n")
    best, best_map = -1, [1] * len(src)
    first = src[0].strip()
    for start, line in enumerate(lines):
        if line.strip() != first:
            continue
        mapping, j, matched = [], start, 0
        for s in src:
            if j < len(lines) and lines[j].strip() == s.strip():
                mapping.append(j + 1)
                j, matched = j + 1, matched + 1
            else:
                mapping.append(max(j, start + 1))
        if matched > best:
            best, best_map = matched, mapping
    return best_map


def diagram_finding(path: str, raw: str, source: str, message: str) -> Finding:
    """MER004 at the diagram's line that mermaid names (its own count includes the added lines)."""
    mapping = source_lines(raw, source) if source.strip() else [1]
    m = ON_LINE.search(message)
    n = int(m.group(1)) if m else 1
    line = mapping[min(max(n, 1), len(mapping)) - 1]
    text = " ".join(message.split())
    return Finding(path, line, 1, DiagramParseError.code, DiagramParseError.severity,
                   f"mermaid cannot draw this diagram: {text[:300]}",
                   hint="fix the diagram's syntax (https://mermaid.js.org/syntax/flowchart.html)")
