from . import Hit, Rule
from serieskit.model.assets import RASTER
from serieskit.conventions import DATA_SUFFIXES


class AssetPolicy(Rule):
    """Only images, sanitized SVG and declared data files are published from series/.

    What:
    A file under `series/` that is not a post, a manifest or a glossary is published only when its
    type is allowed: a raster image (`.png`, `.jpg` / `.jpeg`, `.gif`, `.webp`, `.avif`) whose
    bytes are that format, an SVG (published sanitized: no `<script>`, `<foreignObject>`, event
    handler, animation, external link or CSS that loads or runs something; anything the sanitizer
    removes is reported), or a data file whose type `conventions.yml` declares under
    `assets: data_files:` (one of `.csv`, `.tsv`, `.txt`, `.json`). Any other file (`.html`, `.js`,
    `.css`, `.xml`, `.pdf`, ...) is not published. Neither is a file whose place in the site is
    the site's own: a `docs/` file, a generated page or feed, the `assets/`, `search/` or
    `pagefind/` folders, `_headers`, `sitemap.xml`, `404.html`.

    Why:
    The site's files are served from its own origin, where its Content-Security-Policy trusts
    them: a script or page next to a post, or a file over the site's own `search.js`, would run
    on every page.
    """
    code, slug, severity, target = "SEC002", "asset-policy", "error", "site"
    family = "SEC"

    def check_site(self, ctx):
        plan = ctx.site.assets
        for p in plan.problems if plan is not None else ():
            message, hint = wording(p.kind, p.detail)
            yield Hit(1, 1, message, path=p.path, hint=hint)


ALLOWED = ("images (" + ", ".join(RASTER) + "), SVG (sanitized) and the data files conventions.yml declares "
           "(`assets: data_files:`)")


def wording(kind: str, detail: str) -> tuple[str, str | None]:
    """The message and the hint of one problem of the publishing plan (serieskit/model/assets.py Problem)."""
    if kind == "type":
        return (f"a `{detail}` file is not published: only {ALLOWED} are",
                "move it out of series/, or link to it where it is hosted")
    if kind == "data-type":
        return (f"a `{detail}` data file is not published: conventions.yml does not declare `{detail}` "
                f"under `assets: data_files:`", f"declare it there (one of {', '.join(DATA_SUFFIXES)}) to publish it")
    if kind == "signature":
        want, found = detail.split("|")
        return (f"not published: the name says {want}, but the bytes are "
                f"{'a ' + found + ' image' if found else 'no image format the site publishes'}",
                "save the image in the format its name says (or rename it)")
    if kind == "svg":
        return f"SVG not published: {detail}", "export it again as a plain SVG (UTF-8, one <svg> element)"
    if kind == "svg-changed":
        return (f"published without what the sanitizer removed: {detail}",
                "draw without scripts, event handlers, animation, foreignObject, links other than `#id` and "
                "CSS that loads something (url() other than `url(#id)`, @import); export a plain SVG")
    if kind == "taken":
        path, owner = detail.split("|", 1)
        return (f"not published: it would be the site's `{path}`, which is {owner}",
                "move it into the folder of its series (e.g. series/<series>/assets/)")
    return f"cannot read the file: {detail}", None
