#!/usr/bin/env python3
"""Scaffold a post: `python scripts/new_post.py --series train-infer-accel --slug x --title "..."`."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serieskit.lint.newpost import main  # noqa: E402

if __name__ == "__main__":
    main()
