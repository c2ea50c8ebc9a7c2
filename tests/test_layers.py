"""serieskit's layers: a module imports only from its own layer and the ones below it (README,
"Writing a post", its Layout table; ARCHITECTURE.md). The order, bottom to top:

    the base: the package's top-level modules (finding, markup, yamlsafe, conventions) and the
    sanitizer's package (sanitize/)
    -> parse -> model -> analysis -> lint -> factcheck -> render -> pipeline -> publish -> lsp

Every import counts, at the top of a module or inside a function."""
from __future__ import annotations

from support.imports import imports
from support.project import ROOT

PKG = ROOT / "serieskit"
LAYERS = ["", "parse", "model", "analysis", "lint", "factcheck", "render", "pipeline", "publish", "lsp"]
BASE_PACKAGES = {"sanitize"}    # sub-packages that belong to the base layer ("")


def layer_of(module: str) -> str:
    """'serieskit.lint.rules.x' and the package 'serieskit.lint' -> 'lint'; a top-level module, a
    module of a base package or serieskit itself -> ''."""
    parts = module.split(".")[1:]
    return parts[0] if parts and parts[0] in LAYERS else ""


def test_no_layer_imports_one_above_it():
    wrong = []
    for path in sorted(PKG.rglob("*.py")):
        if "fixtures" in path.parts:
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        mine = LAYERS.index(layer_of(module))
        for line, target in imports(path):
            if LAYERS.index(layer_of(target)) > mine:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {layer_of(module) or 'serieskit'} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_every_sub_package_is_a_layer():
    folders = {p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert folders == set(LAYERS[1:]) | BASE_PACKAGES


def test_the_top_level_is_a_handful_and_no_module_is_long():
    top = sorted(p.name for p in PKG.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= 5, top
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in PKG.rglob("*.py")
            if "fixtures" not in p.parts and (n := len(p.read_text(encoding="utf-8").splitlines())) > 500]
    assert not long, long


def test_the_conventions_know_every_rule_code_without_importing_the_linter():
    from serieskit.conventions import rule_codes
    from serieskit.lint.rules import REGISTRY
    assert rule_codes() == set(REGISTRY)


def test_the_mkdocs_adapter_is_one_entry_file_and_one_package():
    """MkDocs imports hooks/series.py with hooks/ on sys.path; the adapter's other modules live in the
    package `serieshooks`, so none is imported under a bare, clashing name (`state`, `search`, ...)."""
    hooks = ROOT / "hooks"
    assert sorted(p.name for p in hooks.glob("*.py")) == ["series.py"]
    assert (hooks / "serieshooks" / "__init__.py").is_file()
