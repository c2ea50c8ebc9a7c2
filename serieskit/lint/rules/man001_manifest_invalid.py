from serieskit.model.schema import MANIFEST_BY_NAME, MANIFEST_KEYS, SWITCHES, manifest_value_ok
from . import Hit, Rule, unsilenceable


class ManifestInvalid(Rule):
    """A series manifest parses and its values are valid.

    What:
    `series/<slug>/series.yml` is not valid YAML or UTF-8, is not a mapping, has a value of the wrong
    type (`stale_after_days: soon`), a `slug` that differs from its folder, a planned entry without
    a title, or a rule switch other than off / info / warning / error, or a switch of a security
    rule (SEC: a series cannot turn one off or lower it; only the project's `conventions.yml` can),
    or a `glossary:` path that leaves the series folder (`/etc/passwd`, `../x.yml`: it is not read).

    Why:
    The manifest feeds the series index, the planned posts, staleness and rule switches; when it is
    broken the series falls back to defaults and the posts' checks become unreliable.
    """
    code, slug, severity, target = "MAN001", "manifest-invalid", "error", "site"
    family = "MAN"

    def check_site(self, ctx):
        for s in ctx.site.series.values():
            yield from check_manifest(s)


def check_manifest(s):
    path, data, keys = s.manifest_rel, s.manifest, s.key_lines
    if s.manifest_error is not None:
        e = s.manifest_error
        yield Hit(e.line, e.column, e.message, path=path, hint=e.hint)
        return
    for key in MANIFEST_KEYS:
        if not manifest_value_ok(key, data.get(key)):
            yield Hit(keys.get(key, 1), 1, f"`{key}` must be {MANIFEST_BY_NAME[key].kind}", path=path)
    if s.glossary_outside:
        yield Hit(keys.get("glossary", 1), 1, f"`glossary: {s.glossary_outside}` is outside the series folder; "
                                              f"it is not read", path=path,
                  hint=f"put the glossary in series/{s.dir.name}/ and name it relative to it (`glossary.yml`)")
    slug = data.get("slug")
    if isinstance(slug, str) and slug != s.dir.name:
        yield Hit(keys.get("slug", 1), 1, f"`slug: {slug}` must equal the folder name `{s.dir.name}`", path=path)
    rules = data.get("rules")
    for code, sev in (rules.items() if isinstance(rules, dict) else ()):
        sev = "off" if sev is False else sev   # YAML 1.1 reads a bare `off` as false
        if str(sev) not in SWITCHES:
            yield Hit(keys.get("rules", 1), 1, f"rule switch `{code}: {sev}` must be one of {', '.join(SWITCHES)}",
                      path=path)
        elif unsilenceable(code):
            yield Hit(keys.get("rules", 1), 1, f"rule switch `{code}: {sev}` is ignored: a series cannot switch "
                                              f"a security rule", path=path,
                      hint="remove it; only the project's conventions.yml can relax a security rule")
    planned = data.get("planned")
    for i, item in enumerate(planned if isinstance(planned, list) else ()):
        line = keys.get("planned", 1) + 1 + i
        if isinstance(item, str):
            continue
        if isinstance(item, dict) and isinstance(item.get("title"), str):
            order = item.get("order")
            if order is not None and (not isinstance(order, int) or isinstance(order, bool)):
                yield Hit(line, 1, f"planned post `{item['title']}`: order must be an integer", path=path)
        else:
            yield Hit(line, 1, "a planned entry needs a `title`", path=path)
