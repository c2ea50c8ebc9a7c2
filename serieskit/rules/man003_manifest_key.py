from . import Hit, Rule


class ManifestUnknownKey(Rule):
    """Series manifest keys are the known ones.

    What:
    The manifest has a key the site does not use (known: title, slug, index_title, description,
    author, standing_examples, stale_after_days, timely, glossary, rules, planned).

    Why:
    A misspelt key (`stale_after_day`) is silently ignored and its default applies instead.

    Bad:
    stale_after_day: 90

    Good:
    stale_after_days: 90
    """
    code, slug, severity, target = "MAN003", "manifest-unknown-key", "warning", "site"
    family = "MAN"

    def check_site(self, ctx):
        for s in ctx.site.series.values():
            for path, code, line, col, _sev, msg in s.problems:
                if code == self.code:
                    yield Hit(line, col, msg, path=path)
