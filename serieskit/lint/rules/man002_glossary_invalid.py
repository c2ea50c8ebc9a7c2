from serieskit.model.schema import GLOSSARY_KEYS
from . import Hit, Rule


class GlossaryInvalid(Rule):
    """The series glossary parses and every entry is complete.

    What:
    The glossary file named by the manifest (`glossary: glossary.yml`) is missing, does not parse,
    is not a list, or has an entry without `term` or `desc`, an unknown key (known:
    <<glossary-keys>>), or a term / alias that another entry already uses.

    Why:
    The glossary feeds the term table of the map post, the hover tooltips in every post and the
    Chinese search dictionary; a broken entry silently drops a term from all three.
    """
    code, slug, severity, target = "MAN002", "glossary-invalid", "error", "site"
    family = "MAN"

    def check_site(self, ctx):
        for s in ctx.site.series.values():
            yield from check_glossary(s)


def check_glossary(s):
    rel, data = s.glossary_rel, s.glossary_data
    if s.glossary_missing:
        yield Hit(1, 1, f"the glossary file `{rel}` named by the manifest does not exist", path=s.manifest_rel)
        return
    if s.glossary_error is not None:
        e = s.glossary_error
        yield Hit(e.line, e.column, e.message, path=rel, hint=e.hint)
        return
    if data is None:
        return
    if not isinstance(data, list):
        yield Hit(1, 1, "the glossary must be a YAML list of entries (- term: ...)", path=rel)
        return
    for i, item in enumerate(data):
        line = s.glossary_lines[i] if i < len(s.glossary_lines) else 1
        if not isinstance(item, dict) or not isinstance(item.get("term"), str) or not item["term"].strip():
            yield Hit(line, 1, "a glossary entry needs a `term` (string)", path=rel)
            continue
        unknown = set(map(str, item)) - set(GLOSSARY_KEYS)
        if unknown:
            yield Hit(line, 1, f"unknown glossary key(s): {', '.join(sorted(unknown))}", path=rel)
        if not isinstance(item.get("desc"), str) or not item["desc"].strip():
            yield Hit(line, 1, f"glossary entry `{item['term']}` needs a one-line `desc`", path=rel)
        if not isinstance(item.get("aliases") or [], list):
            yield Hit(line, 1, f"`aliases` of `{item['term']}` must be a list", path=rel)
    seen: dict[str, int] = {}
    for e in s.glossary:
        for form in [e.term, *e.aliases]:
            key = form.casefold()
            if key in seen:
                yield Hit(e.line, 1, f"`{form}` is already a term or alias (line {seen[key]})", path=rel)
            seen[key] = e.line
