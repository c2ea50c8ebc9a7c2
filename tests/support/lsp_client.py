"""A small language client for the tests and scripts/bench_lsp.py: it starts `python -m serieskit.lsp`
as a subprocess and talks JSON-RPC to it over the process' real stdin / stdout with `Content-Length`
framing, as an editor does. A reader thread files every message the server sends; requests the server
makes (client/registerCapability, ...) are answered with null."""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from support.project import ROOT


class ServerDied(Exception):
    pass


class Client:
    def __init__(self, cwd: Path | None = None, argv: list[str] | None = None, env: dict | None = None):
        e = dict(os.environ if env is None else env)
        e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
        cmd = argv or [sys.executable, "-m", "serieskit.lsp"]
        self.proc = subprocess.Popen(cmd, cwd=cwd or ROOT, env=e, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.ids = itertools.count(1)
        self.responses: dict[int, dict] = {}
        self.notes: list[dict] = []          # every notification, in order of arrival
        self.cond = threading.Condition()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(iter(self.proc.stderr.readline, b"")), daemon=True).start()

    # --- wire ----------------------------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self.cond:
                        self.cond.notify_all()
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            msg = json.loads(out.read(length))
            msg["_t"] = time.perf_counter()
            if "method" in msg and "id" in msg:
                self._send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            with self.cond:
                if "method" in msg:
                    self.notes.append(msg)
                else:
                    self.responses[msg["id"]] = msg
                self.cond.notify_all()

    def _wait(self, pred, timeout: float):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                hit = pred()
                if hit is not None:
                    return hit
                if self.proc.poll() is not None:
                    raise ServerDied(f"the server exited ({self.proc.returncode}): {self.log()[-3000:]}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer in {timeout} s; server log: {self.log()[-3000:]}")
                self.cond.wait(min(left, 0.2))

    def log(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")

    # --- JSON-RPC ------------------------------------------------------------------------------
    def request(self, method: str, params, timeout: float = 30) -> dict:
        i = next(self.ids)
        self._send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return self._wait(lambda: self.responses.pop(i, None), timeout)

    def result(self, method: str, params, timeout: float = 30):
        r = self.request(method, params, timeout)
        assert "error" not in r, r
        return r["result"]

    def notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def mark(self) -> int:
        with self.cond:
            return len(self.notes)

    def wait_note(self, method: str, since: int = 0, timeout: float = 30, where=lambda p: True) -> dict:
        """The first notification `method` after position `since` whose params satisfy `where`."""
        def find():
            for m in self.notes[since:]:
                if m["method"] == method and where(m["params"]):
                    return m
            return None
        return self._wait(find, timeout)

    def diagnostics(self, uri: str, since: int = 0, timeout: float = 30) -> list[dict]:
        return self.wait_note("textDocument/publishDiagnostics", since, timeout,
                              lambda p: p["uri"] == uri)["params"]["diagnostics"]

    # --- an editor's session -------------------------------------------------------------------
    def initialize(self, root: Path | None, encodings: list[str] | None = None, **caps) -> dict:
        general = {"positionEncodings": encodings} if encodings else {}
        params = {"processId": os.getpid(), "rootUri": root.as_uri() if root else None,
                  "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}] if root else None,
                  "capabilities": {"general": general, "textDocument": {
                      "hover": {"contentFormat": ["markdown", "plaintext"]},
                      "publishDiagnostics": {"versionSupport": True}, **caps}}}
        r = self.result("initialize", params)
        self.notify("initialized", {})
        return r

    def open(self, uri: str, text: str, version: int = 1, language: str = "markdown") -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language,
                                                              "version": version, "text": text}})

    def change(self, uri: str, version: int, text: str, rng: dict | None = None) -> None:
        change = {"text": text, **({"range": rng} if rng else {})}
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [change]})

    def close(self) -> int:
        """shutdown, exit; the server's exit status."""
        try:
            self.result("shutdown", None, timeout=10)
            self.notify("exit", None)
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
