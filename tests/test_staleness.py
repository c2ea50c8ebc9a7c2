"""Whether a timely post is stale is decided once, by `Site.staleness` (serieskit/model/site.py): the
banner's "可能已过时" notice (serieskit/render/post.py) and TML003 read the same last update
(`updated`, else `date`), the same window (the manifest's `stale_after_days`, else conventions.yml's)
and the same date of the site, so one cannot say stale where the other says fresh."""
import datetime as dt

import pytest

from support.project import make_site
from serieskit.lint.engine import lint
from serieskit.model.loader import load_site
from serieskit.render.post import render_post

HUB = "series/demo/hub.md"      # timely (the demo manifest), with a banner; date 2026-04-18, updated 2026-05-08


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def project(tmp_path, case):
    root = make_site(tmp_path)
    manifest, conv = root / "series/demo/series.yml", root / "conventions.yml"
    if case == "window from the manifest":
        edit(manifest, "stale_after_days: 180", "stale_after_days: 30")
        return root, dt.date(2026, 5, 8), 30
    edit(manifest, "stale_after_days: 180\n", "")                              # conventions.yml's default
    edit(conv, "stale_after_days: 180", "stale_after_days: 90")
    edit(root / HUB, "updated: 2026-05-08\n", "")                             # `date` when no `updated`
    edit(root / HUB, "最后更新：2026-05-08", "最后更新：2026-04-18")
    return root, dt.date(2026, 4, 18), 90


def verdicts(root, today):
    """(the rendered banner says stale, TML003 reports the post) on `today`."""
    site = load_site(root, today=today)
    shown = render_post(site.by_rel[HUB], site)
    notice = "可能已过时" in shown.markdown
    assert notice == ("series-banner--stale" in shown.markdown) == (shown.stale_days is not None)
    warned = [f for f in lint(site) if f.path == HUB]
    assert {f.code for f in warned} <= {"TML003"}, warned
    return notice, bool(warned)


@pytest.mark.parametrize("case", ["window from the manifest", "window from conventions.yml, no updated"])
def test_one_day_past_the_window_is_stale_in_both_the_banner_and_tml003(tmp_path, case):
    root, last, window = project(tmp_path, case)
    edge = last + dt.timedelta(days=window)
    assert verdicts(root, edge - dt.timedelta(days=1)) == (False, False)
    assert verdicts(root, edge) == (False, False)           # `window` days old is still fresh
    assert verdicts(root, edge + dt.timedelta(days=1)) == (True, True)
    site = load_site(root, today=edge + dt.timedelta(days=1))
    st = site.staleness(site.by_rel[HUB])
    assert (st.last, st.window, st.age) == (last, window, window + 1)


def test_a_post_the_series_does_not_call_timely_is_warned_when_its_banner_says_stale(tmp_path):
    """`timely: false` with a banner: its readers see the notice, so the author is warned too; without
    a banner neither says anything."""
    root, last, window = project(tmp_path, "window from the manifest")
    edit(root / HUB, "series: demo\n", "series: demo\ntimely: false\n")
    late = last + dt.timedelta(days=window + 1)
    assert verdicts(root, late) == (True, True)
    text = (root / HUB).read_text(encoding="utf-8")
    banner_line = next(line for line in text.split("\n") if "最后更新" in line)
    edit(root / HUB, banner_line + "\n", "")
    assert verdicts(root, late) == (False, False)
