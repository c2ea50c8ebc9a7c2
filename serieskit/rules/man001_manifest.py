from . import Hit, Rule


class ManifestInvalid(Rule):
    """A series manifest parses and its values are valid.

    What:
    `series/<slug>/series.yml` is not valid YAML or UTF-8, is not a mapping, has a value of the wrong
    type (`stale_after_days: soon`), a `slug` that differs from its folder, a planned entry without
    a title, or a rule switch other than off / info / warning / error.

    Why:
    The manifest feeds the series index, the planned posts, staleness and rule switches; when it is
    broken the series falls back to defaults and the posts' checks become unreliable.

    Bad:
    title: 训推加速
    planned:
      - {title: CUDA Graph 实战, order: three}

    Good:
    title: 训推加速
    planned:
      - {title: CUDA Graph 实战, order: 3}
    """
    code, slug, severity, target = "MAN001", "manifest-invalid", "error", "site"
    family = "MAN"

    def check_site(self, ctx):
        for s in ctx.site.series.values():
            for path, code, line, col, _sev, msg in s.problems:
                if code == self.code:
                    yield Hit(line, col, msg, path=path)
