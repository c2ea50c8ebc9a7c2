"""The benchmarks' synthetic series is realistic and clean: every generated post passes every
convention (zero findings of any severity), has the shape the benchmarks claim, and the generator
is deterministic."""
import importlib.util

from support.project import ROOT
from serieskit.lint.engine import lint
from serieskit.model.loader import load_site

spec = importlib.util.spec_from_file_location("gen_synthetic", ROOT / "scripts" / "gen_synthetic.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


def test_generated_series_passes_every_convention(tmp_path):
    root = gen.generate(tmp_path / "syn", 6)
    site = load_site(root, today=gen.BUILD_DATE)
    assert len(site.posts) == 6
    assert lint(site) == []
    for post in site.posts:
        st = post.stats(site.conv)
        assert 5500 <= st.cjk_chars <= 7000, (post.rel, st.cjk_chars)
        assert sum(f.lang == "mermaid" for f in post.body.fences) == 3
        assert len(post.body.images) == 2
        assert len(post.body.tables) == 2          # the skeleton and a comparison table
        assert "$$" in post.text


def test_generator_is_deterministic_and_post_i_does_not_depend_on_n(tmp_path):
    a = gen.generate(tmp_path / "a", 4, seed=3)
    b = gen.generate(tmp_path / "b", 4, seed=3)
    c = gen.generate(tmp_path / "c", 5, seed=3)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    post = "series/synth/post-0001.md"
    assert (a / post).read_bytes() == (c / post).read_bytes()
    assert gen.post(1, 4, seed=4)[0] != gen.post(1, 4, seed=3)[0]
