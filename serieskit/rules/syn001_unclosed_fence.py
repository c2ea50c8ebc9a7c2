from . import Hit, Rule


class UnclosedFence(Rule):
    """Every code fence is closed.

    What:
    A fence opened with ``` or ~~~ (a code block or a mermaid diagram) has no closing fence: the
    rest of the file becomes code, and every check after it goes blind.

    Why:
    An unclosed fence swallows the rest of the post on the site: headings, figures and the
    references all render as one code block.

    Bad:
    ```mermaid
    flowchart LR
      A --> B

    ## 二、下一节

    Good:
    ```mermaid
    flowchart LR
      A --> B
    ```

    ## 二、下一节
    """
    code, slug, severity = "SYN001", "unclosed-fence", "error"
    family = "SYN"

    def check(self, post, ctx):
        for f in post.body.fences:
            if f.end is None:
                what = "mermaid fence" if f.lang == "mermaid" else "code fence"
                yield Hit(f.start, len(f.indent) + 1, f"{what} `{f.marker}{f.info}` is never closed: add a closing "
                                                      f"`{f.marker}` line; everything after it is read as code")
