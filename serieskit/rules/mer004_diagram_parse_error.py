import re

from ..finding import Finding
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

    Bad:
    ````markdown
    ```mermaid
    flowchart LR
      A --> B[未闭合
    ```
    ````

    Good:
    ````markdown
    ```mermaid
    flowchart LR
      A --> B[已闭合]
    ```
    ````
    """
    code, slug, severity = "MER004", "diagram-parse-error", "error"
    family = "MER"

    def check(self, post, ctx):
        return ()   # drawn by the host's build (serieskit/draw): diagram_finding()


def diagram_finding(path: str, raw: str, source: str, message: str) -> Finding:
    """MER004 at the diagram's line: the fence holding `source` in `raw`, plus mermaid's line."""
    first = source.strip().splitlines()[0] if source.strip() else ""
    at = raw.find(source.rstrip("\n")) if source.strip() else -1
    if at < 0 and first:
        at = raw.find(first)
    line = raw.count("\n", 0, at) + 1 if at >= 0 else 1
    m = ON_LINE.search(message)
    if m and at >= 0:
        line = min(line + int(m.group(1)) - 1, line + max(source.rstrip("\n").count("\n"), 0))
    text = " ".join(message.split())
    return Finding(path, line, 1, DiagramParseError.code, DiagramParseError.severity,
                   f"mermaid cannot draw this diagram: {text[:300]}",
                   hint="fix the diagram's syntax (https://mermaid.js.org/syntax/flowchart.html)")
