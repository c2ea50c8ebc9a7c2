from serieskit.analysis.mermaid import analyse, mermaid_fences, outside_palette
from . import Hit, Rule


class OffPaletteColour(Rule):
    """Mermaid diagrams use only the pastel palette and the neutrals.

    What:
    A colour outside the palette in `style`, `classDef`, `linkStyle`, in a diagram's frontmatter
    `config:` / `%%{init}%%` themeVariables, or in a sequence diagram's `rect` / `box`. Palette:
    yellow `#FEF3C7`/`#F59E0B`, blue `#DBEAFE`/`#3B82F6`, green `#DCFCE7`/`#16A34A`, pink
    `#FCE7F3`/`#EC4899`; neutrals: text `#1F2937`, lines `#6B7280`, white `#FFFFFF`. Compared
    case-insensitively, `#abc` equals `#aabbcc`; named colours and `rgb()` are outside. The finding
    points at the colour itself.

    Why:
    The series has one visual language across all its posts (HF-style pastel, four colours). One
    saturated red box breaks it, and off-palette fills are often unreadable in dark mode.
    """
    code, slug, severity = "MER001", "off-palette-colour", "error"
    family = "MER"

    def check(self, post, ctx):
        allowed = ctx.conv.allowed_colours
        for fence in mermaid_fences(post):
            for c in analyse(post, fence).colours:
                if outside_palette(c.text, allowed):
                    yield Hit(c.line, c.col, f"colour `{c.text}` in {c.context} is outside the palette",
                              hint="use a palette class (yellow / blue / green / pink) or one of its fill/stroke colours")
