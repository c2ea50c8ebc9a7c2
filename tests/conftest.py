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


def pytest_collection_modifyitems(config, items):
    """A test that drives the browser is marked `browser` by the fixture it uses (nothing to remember)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", params=HOSTS)
def served(request, tmp_path_factory):
    """The real site, built by each host (MkDocs, Zensical) for the address it is served at (a free
    port on 127.0.0.1), served with its `_headers` (the Content-Security-Policy as a header too): one
    build per host for every browser test module that reads the real site."""
    from support.browser_harness import TODAY as SITE_TODAY, SiteServer, build_site
    out = tmp_path_factory.mktemp(f"browser-{request.param}") / "site"
    out.mkdir()
    with SiteServer(out, cache=True, headers=True) as srv:
        r = build_site(out, ROOT, today=SITE_TODAY, site_url=srv.base, host=request.param)
        assert r.returncode == 0, f"{request.param} build of the real site failed:\n" + (r.stdout + r.stderr)[-4000:]
        yield srv, out, request.param


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
def sweeps(browser, server, built, host, tmp_path_factory):
    """Both viewports' sweeps at once: the phone's in a process of its own (its own Chromium), the
    desktop's here; each takes a core."""
    from support.browser_harness import DESKTOP
    from support.sweep import collect, read_site, read_site_apart
    out = tmp_path_factory.mktemp(f"sweep-{host}") / "phone.json"
    apart = read_site_apart(server.origin, built, "phone", host, out)
    try:
        desktop = read_site(browser, server, built, DESKTOP, "desktop", host)
    except BaseException:
        apart.kill()
        raise
    return {"desktop": desktop, "phone": collect(apart, out)}


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
