from serieskit.parse.syntax import MAX_NESTING
from . import Hit, Rule


class NestingTooDeep(Rule):
    """Lists and quotes nest at most 50 levels deep.

    What:
    A list or blockquote nests more than 50 levels deep: by indentation (a level per 4 spaces) or by
    markers at the start of a line (`- - - x` is three nested items). The finding points at the
    first line and column past level 50; the site shows a note instead of that block.

    Why:
    Python-Markdown parses nested blocks recursively and crashes (RecursionError) a few hundred
    levels down, and nobody can read a list 50 levels deep anyway. The usual cause is a generated or
    pasted file, or a line of `- - - - …` meant as a separator.
    """
    code, slug, severity = "SYN002", "nesting-too-deep", "error"
    family = "SYN"

    def check(self, post, ctx):
        for b in post.body.deep:
            span = f"lines {b.start}-{b.end}" if b.end > b.start else f"line {b.start}"
            yield Hit(b.line, b.col, f"lists or quotes nest {b.depth} levels deep (at most {MAX_NESTING}): Markdown "
                                     f"cannot render that; the site leaves out {span} until it is flattened")
