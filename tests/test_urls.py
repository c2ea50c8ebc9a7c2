"""The site's URLs (serieskit/model/urls.py): where a post is served and written, the links between
pages, a tag's anchor, a series' feed, and an absolute URL."""
from pathlib import Path

from serieskit.model import urls
from serieskit.model.site import Post, Series

ROOT = Path("/project")


def post(name: str, frontmatter: str = "") -> Post:
    return Post(ROOT, ROOT / "series" / "demo" / name, f"---\ntitle: t\n{frontmatter}---\n\n正文\n".encode())


def test_a_post_is_served_at_its_folder_and_slug_and_written_as_index_html():
    assert post("first.md").url_dir == "demo/first/" == urls.url_dir("demo/first.md")
    renamed = post("first.md", "slug: erste\n")      # the slug, not the file name, makes the URL
    assert renamed.url_dir == urls.post_url("demo", "erste") == "demo/erste/"
    assert urls.page_file(renamed.url_dir) == "demo/erste/index.html"
    assert urls.page_dest("demo/first.md") == "demo/first/index.html"
    assert urls.url_dir("demo/index.md") == "demo/" and urls.page_dest("demo/index.md") == "demo/index.html"
    assert urls.url_dir("index.md") == "" and urls.page_dest("index.md") == "index.html"


def test_relative_links_between_pages():
    assert urls.link_from("tags.md", "demo/first.md") == "demo/first.md"          # Markdown: site paths
    assert urls.link_from("demo/second.md", "demo/index.md") == "index.md"
    assert urls.href("tags/", "demo/first/") == "../demo/first/"                   # raw HTML: page URLs
    assert urls.href("demo/", "demo/") == "./" and urls.href("tags/", "") == "../"
    assert urls.href("archive/", "demo/中文 名/") == "../demo/%E4%B8%AD%E6%96%87%20%E5%90%8D/"
    assert urls.relative_url("tags/#tag-x", "demo/first/") == "../../tags/#tag-x"  # the templates' url filter
    assert urls.relative_url("", "tags/") == ".." and urls.relative_url("demo/中文/", "") == "demo/中文/"


def test_tag_anchors_keep_cpp_and_csharp_apart():
    cpp, cs = urls.tag_anchor("C++"), urls.tag_anchor("C#")
    assert cpp != cs and cpp.startswith("tag-C-") and cs.startswith("tag-C-")
    assert urls.tag_anchor("CUDA Graph") == "tag-CUDA-Graph"
    assert urls.tag_url("C++") == f"tags/#{cpp}"
    assert urls.tag_url("推理") == "tags/#tag-%E6%8E%A8%E7%90%86" == "tags/#" + urls.tag_fragment("推理")


def test_a_series_feed_sits_at_the_site_root():
    series = Series(slug="train-infer-accel", dir=ROOT / "series" / "train-infer-accel",
                    manifest_rel="series/train-infer-accel/series.yml")
    assert urls.feed_path(series) == "feed-train-infer-accel.xml"
    assert urls.url_dir(series.index_site_path) == "train-infer-accel/"


def test_absolute_urls_are_percent_encoded():
    assert urls.base_url("https://example.org/blog") == urls.base_url("https://example.org/blog/") \
        == "https://example.org/blog/"
    assert urls.absolute("https://example.org/blog", "demo/中文 名/") \
        == "https://example.org/blog/demo/%E4%B8%AD%E6%96%87%20%E5%90%8D/"
    assert urls.absolute("https://example.org/", "demo/assets/图.png") \
        == "https://example.org/demo/assets/%E5%9B%BE.png"


def test_a_rule_has_its_place_on_the_rules_page():
    """What the editor links a diagnostic to (serieskit/lsp/convert.py), where the rules page puts it
    (serieskit/render/pages.py)."""
    from lsprotocol import types as T
    from serieskit.lint.rules import REGISTRY
    from serieskit.lsp.convert import diagnostic
    from serieskit.model.loader import load_site
    from serieskit.model.site import Finding
    from serieskit.render.pages import rules_page
    assert urls.rules_url("https://example.org/blog") == urls.rules_url("https://example.org/blog/") \
        == "https://example.org/blog/rules/"
    page = rules_page(load_site(Path(__file__).resolve().parents[1]))
    for code in REGISTRY:
        at = T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=1))
        href = diagnostic(Finding("a.md", 1, 1, code, "error", "m"), at, "https://example.org/rules/").code_description.href
        assert href == f"https://example.org/rules/#{code.lower()}", href
        assert f"{{ #{code.lower()} }}" in page, code       # the heading the link lands on
