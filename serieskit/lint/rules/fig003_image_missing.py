from serieskit.analysis.figures import image_refs
from . import Hit, Rule


class ImageMissing(Rule):
    """Every image is a file of the site that exists.

    What:
    An image source (`![alt](src)` or `<img src>`) does not resolve to an existing file next to the
    post (relative to the post's folder), or points at another host. Paths with spaces or Chinese
    characters are fine, written plainly, inside `<...>`, or percent-encoded.

    Why:
    A missing image is a broken figure. A remote image is a request to a third-party host, which
    the site promises its readers never to make (and which is often blocked in mainland China).
    """
    code, slug, severity = "FIG003", "image-missing", "error"
    family = "FIG"

    def check(self, post, ctx):
        for line, col, src in image_refs(post):
            if src.startswith("data:"):
                continue
            kind, target = ctx.site.resolve(post, src)
            if kind == "external":
                yield Hit(line, col, f"image `{src}` is on another host",
                          hint="save it under the post's assets/ folder (the site makes no third-party requests)")
            elif kind == "outside":
                yield Hit(line, col, f"image `{src}` climbs out of the site's files")
            elif kind in ("missing", "anchor"):
                yield Hit(line, col, f"image file `{src}` does not exist (looked for series/{target})")
