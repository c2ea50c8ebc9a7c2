from . import Hit, Rule


class UnclosedFence(Rule):
    """Every code fence is closed.

    What:
    A fence opened with ``` or ~~~ (a code block or a mermaid diagram) has no closing fence.

    Why:
    The site's Markdown (superfences) then does not take it as a fence at all: the ``` line shows
    as text and the code or diagram source runs into a paragraph (`<` and `>` in it become HTML, so
    the checks go on reading what follows as the page shows it).
    """
    code, slug, severity = "SYN001", "unclosed-fence", "error"
    family = "SYN"

    def check(self, post, ctx):
        for f in post.body.fences:
            if f.end is None:
                what = "mermaid fence" if f.lang == "mermaid" else "code fence"
                yield Hit(f.start, len(f.indent) + 1, f"{what} `{f.marker}{f.info}` is never closed",
                          hint=f"add a closing `{f.marker}` line; until then the site shows it as text, not as code")
