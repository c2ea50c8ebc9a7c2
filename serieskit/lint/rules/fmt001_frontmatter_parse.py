from . import Hit, Rule


class FrontmatterParse(Rule):
    """A post starts with a YAML frontmatter block that parses into a mapping.

    What:
    The file has no `---` frontmatter block, the block is never closed, its YAML does not parse
    (the finding points at the line PyYAML stopped on), or it is a list or a plain value instead
    of a mapping of keys.

    Why:
    Title, slug, date and series position all come from the frontmatter; without it the post has
    no URL and no place in its series.
    """
    code, slug, severity = "FMT001", "frontmatter-parse", "error"
    family = "FMT"

    def check(self, post, ctx):
        err = post.fm.error
        if err is not None:
            yield Hit(err.line, err.column, err.message, hint=err.hint)
