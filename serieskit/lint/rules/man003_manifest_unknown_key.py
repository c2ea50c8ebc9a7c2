from serieskit.model.schema import MANIFEST_KEYS
from . import Hit, Rule


class ManifestUnknownKey(Rule):
    """Series manifest keys are the known ones.

    What:
    The manifest has a key the site does not use (known: <<manifest-keys>>).

    Why:
    A misspelt key (`stale_after_day`) is silently ignored and its default applies instead.
    """
    code, slug, severity, target = "MAN003", "manifest-unknown-key", "warning", "site"
    family = "MAN"

    def check_site(self, ctx):
        for s in ctx.site.series.values():
            for key in s.manifest:
                if key not in MANIFEST_KEYS:
                    yield Hit(s.key_lines.get(str(key), 1), 1, f"unknown manifest key `{key}`", path=s.manifest_rel)
