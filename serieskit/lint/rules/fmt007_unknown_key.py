import difflib

from serieskit.model.schema import FRONTMATTER_KEYS
from . import Hit, Rule


class UnknownKey(Rule):
    """Frontmatter keys are the known ones.

    What:
    A frontmatter key that the site does not use: usually a typo of a known key (`udpated`,
    `tag`). Known keys: <<frontmatter-keys>>.

    Why:
    A misspelt key is silently ignored: the post would show no update date or no tags, and nobody
    would notice.
    """
    code, slug, severity = "FMT007", "unknown-key", "warning"
    family = "FMT"

    def check(self, post, ctx):
        if post.fm.data is None:
            return
        for key in post.meta:
            if key in FRONTMATTER_KEYS:
                continue
            close = difflib.get_close_matches(key, FRONTMATTER_KEYS, n=1, cutoff=0.6)
            line, col = post.fm.key_pos.get(key, (post.fm.start or 1, 1))
            yield Hit(line, col, f"unknown frontmatter key `{key}`",
                      hint=f"did you mean `{close[0]}`?" if close else None)
