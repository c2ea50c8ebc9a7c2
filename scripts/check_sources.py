#!/usr/bin/env python3
"""Check the register of sources (factcheck/sources.yml) against the fact-check tables
(factcheck/<slug>.md) and the posts' 参考资料 sections (series/**/*.md): serieskit/factcheck/.

    python scripts/check_sources.py [--root DIR] [--today YYYY-MM-DD]

Prints one `path:line: message` per problem and exits 1 when there is any. The rules are
described in factcheck/README.md.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from serieskit.factcheck.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(root=ROOT))
