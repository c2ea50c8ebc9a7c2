#!/usr/bin/env python3
"""Check posts against the series conventions: `python scripts/lint.py [PATH ...]` (see --help)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serieskit.lint.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
