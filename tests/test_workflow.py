"""The GitHub Actions workflow (.github/workflows/publish.yml): valid against the GitHub workflow schema
that check-jsonschema vendors (offline, no download), and doing what the README promises: the same gate
as `make test`, a deploy from main only, SITE_URL and SOURCE_DATE_EPOCH set for the build, every action
pinned to a commit, least-privilege permissions."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.project import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")
ON_MAIN = "github.event_name != 'pull_request' && github.ref == 'refs/heads/main'"


def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def text() -> str:
    return WORKFLOW.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def wf(text) -> dict:
    return yaml.safe_load(text)


def triggers(wf: dict) -> dict:
    # PyYAML reads the bare key `on` as the boolean True (YAML 1.1); GitHub reads it as "on".
    return wf.get("on", wf.get(True))


def steps(job: dict) -> list[dict]:
    return job["steps"]


def runs(job: dict) -> str:
    return "\n".join(s.get("run", "") for s in steps(job))


def test_check_jsonschema_is_installed():
    assert CHECK_JSONSCHEMA.exists(), "pip install -e '.[dev]' brings check-jsonschema"


def test_workflow_is_valid_against_the_github_workflow_schema():
    r = validate(WORKFLOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok -- validation done" in r.stdout


@pytest.mark.parametrize("breakage", ["runs-on removed", "unknown job key", "unknown top-level key"])
def test_a_broken_workflow_is_rejected(tmp_path, text, breakage):
    """The schema check is known to work: a broken copy fails it, for the reason that was broken."""
    if breakage == "runs-on removed":
        broken, n = re.subn(r"(?m)^  test:\n    runs-on: [^\n]*\n", "  test:\n", text)
        expect = "jobs.test"
    elif breakage == "unknown job key":
        broken, n = re.subn(r"(?m)^  test:\n", "  test:\n    run-on: ubuntu-24.04\n", text)
        expect = "jobs.test"
    else:
        broken, n = re.subn(r"(?m)^permissions:\n", "permisions:\n", text)
        expect = "'permisions' was unexpected"
    assert n == 1, "the edit must apply to the workflow as it is"
    path = tmp_path / "publish.yml"
    path.write_text(broken, encoding="utf-8")
    r = validate(path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert expect in r.stdout, r.stdout


def test_every_action_is_pinned_to_a_full_commit_sha(wf, text):
    uses = [s["uses"] for job in wf["jobs"].values() for s in steps(job) if "uses" in s]
    assert uses, "the workflow uses actions"
    for u in uses:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u), f"not pinned to a commit SHA: {u}"
    # and each pin names its release tag in a comment, so an update is readable
    lines = [ln for ln in text.splitlines() if re.search(r"\buses:", ln)]
    assert len(lines) == len(uses)
    for ln in lines:
        assert re.search(r"@[0-9a-f]{40} # v\d+(\.\d+)*$", ln), ln


def test_triggers_push_to_main_pull_requests_and_manual(wf):
    on = triggers(wf)
    assert on["push"]["branches"] == ["main"]
    assert "pull_request" in on and "workflow_dispatch" in on
    assert "pull_request_target" not in on


def test_the_test_job_runs_make_test_with_apt_chromium(wf):
    job = wf["jobs"]["test"]
    assert job["runs-on"].startswith("ubuntu-")
    assert "if" not in job, "the gate runs on every event, pull requests included"
    commands = [s.get("run", "").strip() for s in steps(job)]
    assert "make test" in commands
    script = runs(job)
    assert "apt-get install" in script and "fonts-noto-cjk" in script and "chromium" in script
    assert "playwright install" not in script
    actions = {s["uses"].split("@")[0]: s.get("with", {}) for s in steps(job) if "uses" in s}
    assert str(actions["actions/setup-python"]["python-version"]) == "3.11"
    assert "actions/setup-node" in actions, "make test runs npm ci"


def test_build_and_deploy_happen_only_on_main_after_the_gate(wf):
    jobs = wf["jobs"]
    assert jobs["build"]["needs"] == "test"
    assert jobs["deploy"]["needs"] == "build"
    for name in ("build", "deploy"):
        assert jobs[name]["if"] == ON_MAIN, name
    # nothing else in the workflow deploys
    deployers = [n for n, j in jobs.items() for s in steps(j) if s.get("uses", "").startswith("actions/deploy-pages@")]
    assert deployers == ["deploy"]
    assert jobs["deploy"]["environment"]["name"] == "github-pages"
    assert jobs["deploy"]["concurrency"]["group"] == "pages"


def test_build_sets_site_url_and_source_date_epoch(wf):
    job = wf["jobs"]["build"]
    ids = {s.get("id"): s for s in steps(job)}
    assert ids["pages"]["uses"].startswith("actions/configure-pages@")
    build = next(s for s in steps(job) if "make build" in s.get("run", ""))
    # base_url has no trailing slash ("https://octocat.github.io/my-repo"); the site's links need one
    assert build["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert re.search(r'export SOURCE_DATE_EPOCH="\$\(git log -1 --format=%ct\)"', build["run"])
    upload = next(s for s in steps(job) if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert steps(job).index(ids["pages"]) < steps(job).index(build) < steps(job).index(upload)
    assert upload["with"]["path"] == "site", "make build writes site/"


def test_the_makefile_build_is_the_strict_build():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"(?m)^build: setup\n\t\$\(VENV\)/bin/mkdocs build --strict --quiet -d site$", makefile)


def test_permissions_are_least_privilege(wf):
    assert wf["permissions"] == {"contents": "read"}
    jobs = wf["jobs"]
    assert "permissions" not in jobs["test"]
    assert jobs["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    for name, job in jobs.items():
        for s in steps(job):
            if s.get("uses", "").startswith("actions/checkout@"):
                assert s["with"]["persist-credentials"] is False, name
