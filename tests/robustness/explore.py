"""Collect every distinct rule break of the hostile-input generators instead of stopping at the first:
``python -m tests.robustness.explore [--examples N] [--seed S]`` prints one line per (command, rule,
first message line) with a reproducing command line. Used to list the faults for issue 11."""

from __future__ import annotations

import argparse
import re
import tempfile
from collections import defaultdict
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from .cli_rules import Fixture, Outcome, check
from .hostile_inputs import LEAVES, argv_for, job_document, sweep_cases


def _key(o: Outcome, rule: str) -> str:
    first = (o.err or o.out).strip().splitlines()[:1]
    msg = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", first[0] if first else "")[:90]
    return f"{o.argv[0]} | {re.sub(r'[:(].*', '', rule)} | {msg}"


def sweep(fx: Fixture, found: dict[str, list[tuple[Outcome, str, str | None]]]) -> None:
    for argv in sweep_cases():
        o = check(fx, argv)
        for rule in o.broken:
            found[_key(o, rule)].append((o, rule, None))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=60)
    ap.add_argument("--sweep", action="store_true")
    args = ap.parse_args()
    found: dict[str, list[tuple[Outcome, str, str | None]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        fx = Fixture.build(Path(tmp))
        if args.sweep:
            sweep(fx, found)
        for path in sorted(LEAVES) if not args.sweep else []:
            opts = settings(
                max_examples=args.examples,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )
            if path == ("run",):

                @opts
                @given(job=job_document())
                def jobs(job: tuple[str, str | None]) -> None:
                    o = check(fx, ["run", "@JOB@", "--quiet"], job=job[0], loaded=job[1])
                    for rule in o.broken:
                        found[_key(o, rule)].append((o, rule, job[0]))

                jobs()
                continue

            @opts
            @given(argv=argv_for(path))
            def cmds(argv: list[str]) -> None:
                o = check(fx, argv)
                for rule in o.broken:
                    found[_key(o, rule)].append((o, rule, None))

            cmds()
    for key, hits in sorted(found.items()):
        o, rule, job = min(hits, key=lambda h: len(" ".join(h[0].argv)) + len(h[2] or ""))
        print(f"== {key}  [{len(hits)}x]\n   rule: {rule}\n   {o.describe()}")
        if job:
            print("   job:\n" + "\n".join("     " + x for x in job.splitlines()))


if __name__ == "__main__":
    main()
