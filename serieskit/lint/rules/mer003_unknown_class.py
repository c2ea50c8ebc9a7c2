from serieskit.analysis.mermaid import analyse, mermaid_fences
from . import Hit, Rule


class UnknownClass(Rule):
    """Mermaid style classes are palette classes or defined in the diagram.

    What:
    `class X name` or `X:::name` uses a class that is neither a palette class (`yellow`, `blue`,
    `green`, `pink`, injected into every diagram by the build) nor defined by a `classDef` in that
    diagram.

    Why:
    Mermaid silently ignores an unknown class: the node falls back to the default colour and the
    author's intent is lost (often a typo such as `bule`).
    """
    code, slug, severity = "MER003", "unknown-class", "error"
    family = "MER"

    def check(self, post, ctx):
        palette = ctx.conv.class_names
        for fence in mermaid_fences(post):
            d = analyse(post, fence)
            for line, col, name in d.used:
                if name not in palette and name not in d.defined:
                    yield Hit(line, col, f"class `{name}` is not a palette class ({', '.join(sorted(palette))}) "
                                         f"and has no classDef in this diagram")
