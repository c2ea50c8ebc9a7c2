from . import Hit, Rule


class NotUtf8(Rule):
    """A post is UTF-8 text.

    What:
    The file contains bytes that are not valid UTF-8 (for example a file saved as GBK). The finding
    points at the first bad byte. (A UTF-8 byte-order mark is fine.)

    Why:
    The site and the search index are UTF-8; other encodings show as mojibake or break the build.
    """
    code, slug, severity = "FMT008", "not-utf8", "error"
    family = "FMT"

    def check(self, post, ctx):
        if post.decode_error:
            bad = post.decode_error
            yield Hit(bad.line, bad.column, f"the file is not valid UTF-8: {bad.message}", hint="save it as UTF-8")
