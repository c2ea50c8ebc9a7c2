"""The one gate on what the build publishes: an allow-list HTML/SVG/MathML sanitizer (nh3, the Python
binding of the Rust ammonia crate), with two profiles, each an nh3 Cleaner:

1. a page (`page.py`: `clean`, `clean_text`): exactly what the site's Markdown extensions, the
   engine's own rendering, KaTeX and mermaid write, inline in a page or a feed entry;
2. a standalone SVG file (`svgfile.py`: `sanitize_svg`, `check_svg`): an author's figure under
   series/, which the browser reads as an XML document of its own (see that module).

`css.py` splits a stylesheet into its rules (a diagram's stylesheet, rebuilt by `clean_stylesheet`;
Material's search-box rules, which the Zensical build carries).

Every page's rendered HTML (both hosts), every feed entry and every diagram and formula passes
`clean`. What it would remove is reported (`Removal`: what, where in the output) so that the host can
make an SEC003 finding of it; the sanitized text is what gets published, never the input. SEC001 on
the Markdown source stays as the author's early warning; this gate is the guarantee, so a difference
between the engine's parser and Python-Markdown cannot open a hole.

What was removed is found by parsing the input and the output with a WHATWG parser (selectolax's
Lexbor, the same algorithm as html5ever inside ammonia and as the browsers) and comparing the
elements and attributes: the comparison only names what changed; whatever it names or misses, the
published text is ammonia's output.

Styles: a `style` attribute keeps only the declarations of `STYLE_PROPERTIES` whose value is plain
(no `url(` except a same-document `url(#id)`, no `expression`, no escapes, no `@`); `position` only
`relative` / `absolute` (no full-page overlay). A `<style>` element is never allowed in a page: a
diagram's stylesheet is rebuilt by `clean_stylesheet` from the declarations it keeps (see
serieskit/publish/draw/).
"""
from .page import Cleaned, Removal, clean, clean_stylesheet, clean_text, removed
from .svgfile import check_svg, sanitize_svg

__all__ = ["Cleaned", "Removal", "check_svg", "clean", "clean_stylesheet", "clean_text", "removed", "sanitize_svg"]
