#!/usr/bin/env python3
"""The same series on two hosts: `mkdocs build --strict` (the site as it ships) beside
`zensical_adapter/build.py --strict` (make zensical), on the real site and on N = 300 synthetic posts.

    python scripts/bench_hosts.py            # real site and N = 300; 5 alternating rounds; writes the 性能 page
    python scripts/bench_hosts.py --quick    # real site and N = 60; 2 rounds; writes nothing

Both are whole builds as an author runs them, each in a fresh process, alternately (mkdocs,
zensical, mkdocs, ...) so the machine's noise hits them alike: the convention gate, every page, the
feeds, the policy and the Pagefind index. Zensical's part runs inside it as `python -m zensical
build`. Reported: median wall time and CPU time (the process and its children: Zensical, Node's word
splitter, Pagefind), and the ratio Zensical / MkDocs.
"""
from __future__ import annotations

import argparse
import datetime as dt
import shutil
import sys
from pathlib import Path

from _bench import BENCH, PY, ROOT, env, machine, md_table, median, run, synthetic, table, update_page

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import project_a  # noqa: E402  (the real project over a synthetic series)

HOSTS = {"mkdocs": "MkDocs + Material", "zensical": "Zensical"}


def command(host: str, proj: Path, out: Path) -> list[str]:
    if host == "mkdocs":
        return [PY, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)]
    return [PY, str(ROOT / "zensical_adapter" / "build.py"), "--strict", "--root", str(proj), "-d", str(out)]


def real_project() -> Path:
    """A copy of the repository as committed (a build writes into its project: `.zensical/`)."""
    proj = BENCH / "hosts-real"
    if proj.exists():
        shutil.rmtree(proj)
    for name in ("mkdocs.yml", "conventions.yml"):
        (proj / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, proj / name)
    for name in ("hooks", "overrides", "docs", "series"):
        shutil.copytree(ROOT / name, proj / name, ignore=shutil.ignore_patterns("__pycache__"))
    (proj / "node_modules").symlink_to(ROOT / "node_modules")
    return proj


def measure(label: str, proj: Path, rounds: int) -> dict:
    times: dict[str, list] = {h: [] for h in HOSTS}
    for _ in range(rounds + 1):                 # the first round warms caches and is not counted
        for host in HOSTS:
            out = BENCH / f"hosts-out-{host}"
            r = run(command(host, proj, out), cwd=proj, env=env())
            if r.rc != 0:
                raise SystemExit(f"{host} build of {label} failed:\n{(r.stdout + r.stderr)[-3000:]}")
            times[host].append(r)
    return {h: {"wall": median([r.wall for r in rs[1:]]), "cpu": median([r.cpu for r in rs[1:]])}
            for h, rs in times.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="N = 60, 2 rounds, nothing written")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    if a.quick:
        a.n, a.rounds, a.no_write = 60, 2, True
    print(f"machine: {machine()}")
    cases = {"真实站点": real_project(), f"N={a.n}": project_a(a.n, synthetic(a.n))}
    rows, md_rows = [], []
    for label, proj in cases.items():
        res = measure(label, proj, a.rounds)
        m, z = res["mkdocs"], res["zensical"]
        ratio, cpu_ratio = z["wall"] / m["wall"], z["cpu"] / m["cpu"]
        rows.append([label, f"{m['wall']:.2f}", f"{z['wall']:.2f}", f"{ratio:.2f}", f"{m['cpu']:.2f}", f"{z['cpu']:.2f}",
                     f"{cpu_ratio:.2f}"])
        md_rows.append([label, f"{m['wall']:.2f} s", f"{z['wall']:.2f} s", f"**{ratio:.2f}**",
                        f"{m['cpu']:.2f} s / {z['cpu']:.2f} s ({cpu_ratio:.2f})"])
    print()
    print(table(rows, ["site", "MkDocs s", "Zensical s", "Z/M", "MkDocs CPU", "Zensical CPU", "Z/M CPU"]))
    if not a.no_write:
        body = md_table(["站点", "MkDocs + Material", "Zensical", "Zensical / MkDocs", "CPU（MkDocs / Zensical）"], md_rows)
        body.append("")
        body.append(f"测量：{dt.date.today().isoformat()}；{machine()}；各 {a.rounds} 轮交替构建的中位数（首轮预热不计），"
                    "两边都是作者会跑的完整构建（`mkdocs build --strict` 与 `make zensical`：约定检查、全部页面、订阅源、"
                    "内容安全策略、Pagefind 索引），CPU 含子进程。")
        update_page("bench-hosts", "\n".join(body))
        print("\nwrote docs/performance.md (bench-hosts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
