"""The real site of each host (MkDocs, Zensical) as the browser tests read it: built once a session,
served on 127.0.0.1 with its `_headers` (tests/conftest.py `served`), and swept (tests/support/sweep.py:
every page read once per viewport, tests/conftest.py `sweeps`).

A sweep is the longest thing the suite does (about two minutes a host, most of it axe-core in a page's
renderer), and most of the suite's other tests keep one core: the sweeps start in the background when
the session starts (`start_sweeps`, for the hosts whose sweep a selected test reads), in processes of
their own, one at a time (host by host, viewport by viewport), and the tests that read them run last
(conftest.py orders them).
Whoever asks first for a host's build makes it (the background or a test); the others wait for it.
"""
from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

from support.browser_harness import ROOT, TODAY, SiteServer, build_site
from support.sweep import VIEWPORTS, collect, read_site_apart


class Sites:
    def __init__(self, base: Path):
        self._base = base
        self._lock = threading.Lock()
        self._servers = ExitStack()
        self._built: dict[str, Future] = {}
        self._swept: dict[str, Future] = {}
        self._procs: list = []
        self._closed = False
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sweeps")

    def site(self, host: str) -> tuple[SiteServer, Path, str]:
        """(server, built folder, host) of `host`'s build of the real site, made on the first call."""
        with self._lock:
            done = self._built.get(host)
            mine = done is None
            if mine:
                done = self._built[host] = Future()
        if mine:
            try:
                done.set_result(self._build(host))
            except BaseException as exc:
                done.set_exception(exc)
        return done.result()

    def _build(self, host: str) -> tuple[SiteServer, Path, str]:
        out = self._base / f"browser-{host}" / "site"
        out.mkdir(parents=True)
        with self._lock:
            srv = self._servers.enter_context(SiteServer(out, cache=True, headers=True))
        r = build_site(out, ROOT, today=TODAY, site_url=srv.base, host=host)
        if r.returncode != 0:
            raise AssertionError(f"{host} build of the real site failed:\n" + (r.stdout + r.stderr)[-4000:])
        return srv, out, host

    def start_sweeps(self, hosts: list[str]) -> None:
        """Start the sweeps of `hosts` in the background (one host after the other)."""
        with self._lock:
            for host in hosts:
                if host not in self._swept:
                    self._swept[host] = self._background.submit(self._sweep, host)

    def sweeps(self, host: str) -> dict:
        """{"desktop": visits, "phone": visits} of `host`'s build (started now if it was not)."""
        self.start_sweeps([host])
        return self._swept[host].result()

    def _sweep(self, host: str) -> dict:
        """The two viewports' sweeps, one after the other: one core for the background, the other for
        the tests that run meanwhile (most of them keep one core)."""
        srv, out, _ = self.site(host)
        visits = {}
        for name in VIEWPORTS:
            file = self._base / f"sweep-{host}-{name}.json"
            with self._lock:
                if self._closed:
                    raise RuntimeError("the session ended before the sweep started")
                proc = read_site_apart(srv.origin, out, name, host, file)
                self._procs.append(proc)
            visits[name] = collect(proc, file)
        return visits

    def close(self) -> None:
        """End what still runs (a session stopped early), then stop the servers."""
        with self._lock:
            self._closed = True
            for proc in self._procs:
                if proc.poll() is None:
                    proc.kill()
        self._background.shutdown(wait=True, cancel_futures=True)
        self._servers.close()
