"""CONTRIBUTING.md's "Add a rule" recipe, followed to the letter: a new rule is its module and its
fixtures, and nothing else has to learn about it.

In a throw-away copy of the project (the files git has: the recipe's last step is `git add`),
TYP002 (a typography rule over the shared prose views, whose hits the lint cache keeps,
with a fix) is copied with its fixtures under an unused code, at the paths the recipe names; only
the code, the slug and the class name change. Then pytest runs in that copy, on its own serieskit:

- every test module that reads the rule registry, each test of it that goes over the registry
  (tests/support/added_rule.py says which: the fixture tests for the new code, the module name and
  docs, the conventions' rule codes, the parse-cache tests' set of kept rules, --list-rules, SARIF...);
- the probes of tests/support/added_rule.py: switches, suppressions, the CLI, the lint cache, the
  editor's server and the 写作规范 page pick the new rule up.

A hand-kept list of rules that a new rule would have to join (a pinned set in a test, a table in the
engine) makes this test fail. It runs in a subprocess because the copy's registry, fixtures and
conventions are read at import time, and only running the tests there shows what they pin."""
from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from support import added_rule
from support.project import ROOT, TODAY, make_site
from support.sitebuild import committed_copy
from serieskit.lint.engine import Ctx
from serieskit.lint.rules import FIXTURES, REGISTRY, Rule
from serieskit.model.loader import load_site

SIBLING = "TYP002"
NEW, SLUG = "TYP999", "quote-direction-copy"


def recipe() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split("## Add a rule", 1)[1].split("\n## ", 1)[0]


def add_rule_by_the_recipe(proj: Path) -> list[str]:
    """Step 2 and 3 of the recipe: the module at `serieskit/lint/rules/<code>_<slug>.py`, the fixtures in
    `serieskit/lint/rules/fixtures/<CODE>/`, copied from the sibling. Returns the paths written."""
    steps = recipe()
    module = re.search(r"`(serieskit/lint/rules/<code>_<slug>\.py)`", steps)
    fixtures = re.search(r"`(serieskit/lint/rules/fixtures/<CODE>/)`", steps)
    assert module and fixtures, "the recipe no longer names the module's and the fixtures' paths"
    sibling = REGISTRY[SIBLING]
    source = Path(inspect.getfile(type(sibling))).read_text(encoding="utf-8")
    name = type(sibling).__name__
    text = (source.replace(f'"{SIBLING}", "{sibling.slug}"', f'"{NEW}", "{SLUG}"')
            .replace(f"class {name}(", f"class {name}Copy("))
    assert f'"{NEW}", "{SLUG}"' in text and f"class {name}Copy(" in text, "the sibling's code line changed shape"
    mod = module.group(1).replace("<code>", NEW.lower()).replace("<slug>", SLUG.replace("-", "_"))
    (proj / mod).write_text(text, encoding="utf-8")
    fx = fixtures.group(1).replace("<CODE>", NEW)
    shutil.copytree(FIXTURES / SIBLING, proj / fx)
    for p in (proj / fx).rglob("*"):       # the markers and the snapshot name the new code
        if p.is_file():
            p.write_text(p.read_text(encoding="utf-8").replace(SIBLING, NEW), encoding="utf-8")
    return [mod, fx]


@pytest.mark.slow
def test_a_rule_copied_from_a_sibling_needs_nothing_else(tmp_path):
    assert NEW not in REGISTRY and not (FIXTURES / NEW).exists()
    proj = committed_copy(tmp_path / "proj", paths=())      # every file git has (step 5: `git add`)
    written = add_rule_by_the_recipe(proj)
    plugin = Path(added_rule.__file__).relative_to(ROOT).as_posix()
    here = Path(__file__).name
    modules = sorted(p.relative_to(proj).as_posix() for p in (proj / "tests").glob("test_*.py")
                     if p.name != here and added_rule.READS_REGISTRY.search(p.read_text(encoding="utf-8")))
    env = {k: v for k, v in os.environ.items() if k != "SNAPSHOT_UPDATE"}
    env.update({added_rule.ENV: NEW, "PYTHONPATH": os.pathsep.join([str(proj), str(proj / "tests")]),
                "PYTHONDONTWRITEBYTECODE": "1"})
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-p", "support.added_rule",
                        "-m", "not browser", *modules, plugin],
                       cwd=proj, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"with {written} added:\n{r.stdout[-6000:]}\n{r.stderr[-2000:]}"
    passed = set(re.findall(r"^PASSED (\S+)", r.stdout, re.M))
    # the fixture tests ran for the new rule, the pinned sets over the registry and every probe too
    for test in ("tests/test_rules.py::test_good_fixture_is_clean[TYP999]",
                 "tests/test_rules.py::test_bad_fixture_snapshot[TYP999]",
                 "tests/test_rules.py::test_fixed_fixture_is_what_the_fix_makes_of_the_bad_one[TYP999]",
                 "tests/test_rules.py::test_every_fixture_folder_belongs_to_a_rule",
                 "tests/test_layers.py::test_the_conventions_know_every_rule_code_without_importing_the_linter",
                 "tests/test_parsecache.py::test_a_rule_that_reads_more_than_the_post_is_not_kept",
                 "tests/test_cli.py::test_explain_and_list_rules"):
        assert test in passed, f"{test} did not run in the copy:\n{r.stdout[-3000:]}"
    probes = [n for n in dir(added_rule) if n.startswith("test_")]
    assert probes and all(f"{plugin}::{p}" in passed for p in probes), r.stdout[-3000:]


def test_the_recipes_example_rule_runs_as_written(tmp_path):
    """The rule the recipe shows imports what it names from where it says, finds what it says and
    fixes it; and every `ctx.…` / `post.…` the recipe names is there."""
    steps = recipe()
    block = re.search(r"```python\n(.*?)```", steps, re.S)
    assert block, "the recipe shows no rule module"
    ns = {"__name__": "serieskit.lint.rules.recipe_example", "__package__": "serieskit.lint.rules"}
    exec(compile(textwrap.dedent(block.group(1)), "CONTRIBUTING.md", "exec"), ns)
    (example,) = [v for v in ns.values() if isinstance(v, type) and issubclass(v, Rule) and v is not Rule]
    root = make_site(tmp_path)
    hub = root / "series" / "demo" / "hub.md"
    hub.write_text(hub.read_text(encoding="utf-8").replace("## 参考资料", "他想了很久...才开口。`a...b`\n\n## 参考资料"),
                   encoding="utf-8")
    site = load_site(root, today=TODAY)
    post = site.by_rel["series/demo/hub.md"]
    ctx = Ctx(site, site.conv, site.series_of(post))
    hits = list(example().check(post, ctx))
    assert len(hits) == 1 and hits[0].hint and hits[0].fix, hits          # the code span is not prose
    (edit,) = hits[0].fix
    line = post.line(edit.line)
    assert line[:edit.start - 1] + edit.text + line[edit.end - 1:] == "他想了很久……才开口。`a...b`"
    for chain in set(re.findall(r"\b((?:ctx|post)(?:\.\w+)+)", steps)):
        obj = {"ctx": ctx, "post": post}[chain.split(".")[0]]
        for name in chain.split(".")[1:]:
            assert hasattr(obj, name), f"the recipe names `{chain}`, which is not there"
            obj = getattr(obj, name)
