"""The suite's own selection and order (tests/conftest.py): `-m "not browser"` (`make test-fast`) leaves
out every test that drives a browser or reads the sweeps, and a whole run puts the tests that read the
sweeps last, so the sweeps (started in the background when the session starts, tests/support/sites.py)
run beside the tests that need no browser."""
import subprocess
import sys

import pytest

from support.project import ROOT

pytestmark = pytest.mark.slow      # (three collections of the whole suite, a few seconds each)

SWEEP_READER = "tests/test_browser.py::test_every_page_can_be_read"   # reads the sweeps (`visits`)


def collect(*args: str) -> list[str]:
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return [line for line in r.stdout.splitlines() if "::" in line]


def test_the_quick_loop_leaves_out_the_browser_and_the_sweeps():
    quick = collect("-m", "not browser")
    assert quick and not [t for t in quick if t.startswith(SWEEP_READER) or "test_a11y_browser.py" in t]
    assert any(t.startswith(SWEEP_READER) for t in collect("-m", "browser"))


def test_the_tests_that_read_the_sweeps_run_last():
    order = collect()
    readers = [k for k, t in enumerate(order) if t.startswith(SWEEP_READER)]
    others = [k for k, t in enumerate(order) if "_browser.py" not in t and "test_draw.py" not in t]
    assert readers and others and max(others) < min(readers)
