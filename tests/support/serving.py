"""A real `mkdocs serve` process on a free port, for tests: start it, poll a page until a condition
holds (with a deadline, failing with the server's log), stop it."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from support.sitebuild import env

DEADLINE = 90          # seconds for one rebuild to show up (two shared cores, other builds running)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, proj: Path, log: Path):
        self.proj, self.log_path = proj, log
        self.port = free_port()
        self.log = open(log, "w", encoding="utf-8")
        self.proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
                                     cwd=proj, env=env(), stdout=self.log, stderr=subprocess.STDOUT)

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=20) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, ""
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return 0, ""

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait(self, what: str, check, deadline: float = DEADLINE):
        """Poll until `check()` returns a true value; fail with the server's log tail otherwise."""
        end = time.monotonic() + deadline
        last = None
        while time.monotonic() < end:
            assert self.proc.poll() is None, f"mkdocs serve exited while waiting for {what}:\n{self.output()[-4000:]}"
            last = check()
            if last:
                return last
            time.sleep(0.25)
        pytest.fail(f"timed out waiting for {what}\n--- server log ---\n{self.output()[-4000:]}")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
