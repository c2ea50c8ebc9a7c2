import re

from serieskit.analysis.mermaid import analyse, mermaid_fences
from . import Hit, Rule

ACC_TITLE = re.compile(r"^\s*accTitle\s*:\s*\S")
ACC_DESCR = re.compile(r"^\s*accDescr\s*(?::\s*\S|\{)")


class DiagramTextAlternative(Rule):
    """A diagram says what it shows to readers who cannot see it: `accTitle` and `accDescr`.

    What:
    Every mermaid diagram of a post carries an accessible name (`accTitle: …`, a few words) and a
    text alternative (`accDescr: …` on one line, or `accDescr { … }` over several): what the diagram
    shows, in a sentence or two. The build writes them into the drawn SVG as its `<title>` and
    `<desc>`, which screen readers announce.

    Why:
    A drawn diagram is an image: without these a screen reader says "图" and nothing else, and the
    diagram's content is lost to anyone who cannot see it (WCAG 1.1.1, non-text content).
    """
    code, slug, severity = "MER005", "diagram-text-alternative", "warning"
    family = "MER"
    reads_only_post = True

    def check(self, post, ctx):
        for fence in mermaid_fences(post):
            d = analyse(post, fence)
            lines = [post.line(n) for n in d.lines]
            missing = [k for k, pat in (("accTitle", ACC_TITLE), ("accDescr", ACC_DESCR))
                       if not any(pat.match(t) for t in lines)]
            if missing:
                yield Hit(fence.start, 1, f"this diagram has no {' and no '.join(f'`{m}`' for m in missing)}: "
                                          f"a screen reader cannot say what it shows",
                          hint="add `accTitle: 一句话标题` and `accDescr: 图里画了什么` after the diagram's first line")
