from serieskit.analysis.mermaid import analyse, mermaid_fences
from . import Hit, Rule


class ThemeSwitch(Rule):
    """Mermaid diagrams keep the site's theme.

    What:
    A diagram switches the mermaid theme in its frontmatter (`config: theme: dark`) or in an
    `%%{init: {'theme': 'forest'}}%%` directive. `dark`, `forest`, `default` and `neutral` (anything
    but `base`) are switches.

    Why:
    The site themes every diagram in the palette for light and dark mode; a diagram with its own
    theme ignores both and looks foreign on the page.
    """
    code, slug, severity = "MER002", "theme-switch", "error"
    family = "MER"

    def check(self, post, ctx):
        for fence in mermaid_fences(post):
            for line, col, theme in analyse(post, fence).themes:
                if theme.lower() != "base":
                    yield Hit(line, col, f"diagram switches the mermaid theme to `{theme}`",
                              hint="remove it, the site themes diagrams in the palette for light and dark mode")
