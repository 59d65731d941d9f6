"""``make bench``: every benchmark suite that exists, each in its own process; results land in
bench/results/*.json and each suite prints its own table. Suites read ../shared/datasets."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITES = [
    "foundation",
    "bsgi",
    "tp",
    "lplus",
    "topdown",
    "decomposition",
    "kl",
    "optimal",
    "report",
    "pipeline",
    "engines",
    "compose",
    "releases_axis",
    "release_state",
    "risk",
    "sql_functions",
    "closeness",
    "peers",
    "startup",
    "million",
]


def main() -> int:
    failed = []
    for name in SUITES:
        if importlib.util.find_spec(f"bench.{name}") is None:
            continue
        print(f"\n== bench.{name}", flush=True)
        t0 = time.perf_counter()
        code = subprocess.call([sys.executable, "-m", f"bench.{name}"], cwd=ROOT)
        print(f"== bench.{name}: exit {code} in {time.perf_counter() - t0:.1f} s", flush=True)
        if code:
            failed.append(name)
    if failed:
        print(f"\nsuites missing a target: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
