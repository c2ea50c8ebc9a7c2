"""A renderer in a process of its own, spoken to in JSON lines (serieskit/publish/draw/: mermaid in Chromium,
KaTeX in Node). Started on first use, so a build whose drawings are all cached starts nothing; one per
build (or serve session); any thread may call it (one request at a time)."""
from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path


def npm_version(root: Path, package: str) -> str | None:
    """The version of a package installed in the project's node_modules (None: not installed)."""
    try:
        return json.loads((root / "node_modules" / package / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


class WorkerError(Exception):
    """The renderer could not be started or stopped answering."""


class Worker:
    def __init__(self, name: str, argv: list[str], cwd: str, ready_line: bool = False):
        self.name, self.argv, self.cwd, self.ready_line = name, argv, cwd, ready_line
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen:
        try:
            proc = subprocess.Popen(self.argv, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        except OSError as exc:
            raise WorkerError(f"{self.name}: cannot start {self.argv[0]} ({exc})") from None
        if self.ready_line:
            line = proc.stdout.readline()
            if not line.strip():
                err = proc.stderr.read()[-800:] if proc.poll() is not None else ""
                proc.kill()
                raise WorkerError(f"{self.name} did not start: {err.strip() or 'no answer'}")
        return proc

    def request(self, payload) -> list:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._proc = self._start()
            try:
                self._proc.stdin.write(json.dumps(payload, ensure_ascii=False) + "\n")
                self._proc.stdin.flush()
                line = self._proc.stdout.readline()
            except (OSError, ValueError) as exc:
                self._proc = None
                raise WorkerError(f"{self.name} stopped: {exc}") from None
            if not line:
                err = self._proc.stderr.read()[-800:] if self._proc.poll() is not None else ""
                self._proc = None
                raise WorkerError(f"{self.name} stopped answering {err.strip()}".strip())
            return json.loads(line)

    def close(self) -> None:
        with self._lock:
            if self._proc is not None:
                try:
                    self._proc.stdin.close()
                    self._proc.wait(timeout=10)
                except (OSError, subprocess.TimeoutExpired):
                    self._proc.kill()
                self._proc = None
