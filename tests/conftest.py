import datetime as dt
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from support.project import BASE_SITE, ROOT, TODAY, make_site  # noqa: E402,F401  (the names the fixtures use)
sys.path.insert(0, str(ROOT))

from support.sitebuild import HOSTS  # noqa: E402  (tests/ is on the path: the two builds of the same sources)

# Every build the tests make draws its diagrams and formulas into one cache (the project's own, which
# `make test`'s site build fills first): each drawing is made once per machine, not once per test project.
# The tests of the cache itself give their builds a folder of their own.
os.environ.setdefault("SERIES_DRAW_CACHE", str(ROOT / ".cache" / "draw"))

# Property tests: moderate example counts so the suite stays fast; `HYPOTHESIS_PROFILE=thorough` digs deeper.
# The deadline catches pathological slowness on small inputs, with room for two busy shared cores.
settings.register_profile("serieskit", max_examples=60, deadline=dt.timedelta(seconds=2),
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "serieskit"))




@pytest.fixture
def site_root(tmp_path):
    return make_site(tmp_path)


@pytest.fixture(scope="session")
def browser():
    """One Chromium (Debian's, never a downloaded one) for every browser test of the session:
    Playwright's sync API allows one running instance per process."""
    from support.browser_harness import chromium_problem, launch
    problem = chromium_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: install the dev extra (pip install -e '.[dev]')", pytrace=False)
    pw = sync_playwright().start()
    b = launch(pw)
    yield b
    b.close()
    pw.stop()


def pytest_itemcollected(item):
    """A test that drives the browser or reads a sweep is marked `browser` by the fixtures it uses
    (nothing to remember; before `-m` selects)."""
    if "browser" in getattr(item, "fixturenames", ()) or _reads_a_sweep(item):
        item.add_marker(pytest.mark.browser)


@pytest.hookimpl(trylast=True)     # (after pytest has selected the tests and grouped them by their session fixtures)
def pytest_collection_modifyitems(config, items):
    """The modules without a browser test first, then the other browser modules (whole: a module's
    fixtures are made once), then the tests that read a sweep; each in the order they had. The sweeps
    run in the background meanwhile (`sites`), beside the tests that keep one core, and are done, or
    nearly, before the tests that drive a browser of their own."""
    with_browser = {item.module for item in items if item.get_closest_marker("browser")}

    def rank(item) -> int:
        return 2 if _reads_a_sweep(item) else 1 if item.module in with_browser else 0
    items.sort(key=rank)


def _reads_a_sweep(item) -> bool:
    return "sweeps" in getattr(item, "fixturenames", ())


@pytest.fixture(scope="session")
def sites(tmp_path_factory):
    """Each host's build of the real site, served, and its sweep (tests/support/sites.py)."""
    from support.sites import Sites
    s = Sites(tmp_path_factory.mktemp("sites"))
    yield s
    s.close()


@pytest.fixture(scope="session", autouse=True)
def _sweeps_in_the_background(request):
    """The sweeps the selected tests read, started when the session starts."""
    swept = {i.callspec.params.get("served") for i in request.session.items if _reads_a_sweep(i)}
    hosts = [h for h in HOSTS if h in swept]
    if hosts:
        request.getfixturevalue("sites").start_sweeps(hosts)


@pytest.fixture(scope="session", params=HOSTS)
def served(request, sites):
    """The real site, built by each host (MkDocs, Zensical) for the address it is served at (a free
    port on 127.0.0.1), served with its `_headers` (the Content-Security-Policy as a header too): one
    build per host for every browser test module that reads the real site."""
    return sites.site(request.param)


@pytest.fixture(scope="session")
def server(served):
    return served[0]


@pytest.fixture(scope="session")
def built(served) -> Path:
    return served[1]


@pytest.fixture(scope="session")
def host(served) -> str:
    return served[2]


# --- the sweep (tests/support/sweep.py): every page of a host's build read once per viewport -------------------
@pytest.fixture(scope="session")
def sweeps(sites, served):
    """Both viewports' sweeps of the host's build, each in a process of its own (its own Chromium),
    started in the background when the session started (`_sweeps_in_the_background`)."""
    return sites.sweeps(served[2])


@pytest.fixture(scope="session")
def desktop(sweeps):
    return sweeps["desktop"]


@pytest.fixture(scope="session")
def phone(sweeps):
    return sweeps["phone"]


@pytest.fixture(params=["desktop", "phone"])
def visits(request, desktop, phone):
    # both named, not looked up by name: pytest can then see that they depend on the host's build
    return desktop if request.param == "desktop" else phone
