"""The drawings' cache: one JSON file per drawing under `.cache/draw/`, named by the SHA-256 of what
made it (the source, the renderer's version, the settings, the theme and the sanitizer), so a rebuild
draws only what changed and any change of renderer or theme draws everything again. Plain data: a
damaged or foreign file is a miss, never code."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path


def key(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8")
        h.update(len(b).to_bytes(8, "big"))
        h.update(b)
    return h.hexdigest()


class Store:
    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, kind: str, k: str) -> Path:
        return self.folder / kind / k[:2] / f"{k}.json"

    def get(self, kind: str, k: str) -> dict | None:
        try:
            data = json.loads(self._path(kind, k).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("key") != k:
            return None
        return data

    def put(self, kind: str, k: str, data: dict) -> None:
        path = self._path(kind, k)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({**data, "key": k}, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            pass   # a read-only checkout draws again next time
