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
from .hostile_inputs import LEAVES, argv_for, job_document


def _key(o: Outcome, rule: str) -> str:
    first = (o.err or o.out).strip().splitlines()[:1]
    msg = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", first[0] if first else "")[:90]
    return f"{o.argv[0]} | {re.sub(r'[:(].*', '', rule)} | {msg}"


SWEEP_VALUES = [
    "-1",
    "0",
    "1e999",
    "nan",
    "2.7",
    "nope",
    "AGE",
    "age=1e308,sex=1e308",
    "",
    "'",
    "x=1",
    "age=1,age=2",
]
BASE = {
    ("check",): ["check", "@DB@", "--table", "census", "--qi", "age,sex", "--sa", "occupation"],
    ("metrics",): [
        "metrics",
        "@DB@",
        "--source",
        "census",
        "--release",
        "census_rel",
        "--qi",
        "age,sex",
        "--sa",
        "occupation",
    ],
    ("suggest-l",): ["suggest-l", "@DB@", "--table", "census", "--sa", "occupation"],
    ("hierarchy", "show"): ["hierarchy", "show", "@DB@", "--table", "census"],
    ("hierarchy", "build"): [
        "hierarchy",
        "build",
        "@DB@",
        "--table",
        "census",
        "--column",
        "age",
        "--intervals",
        "5,10",
    ],
    ("load",): ["load", "@DB@", "@CSV@", "--table", "fresh"],
    ("attack", "similarity"): [
        "attack",
        "similarity",
        "@DB@",
        "--table",
        "census_rel",
        "--qi",
        "age,sex",
        "--sa",
        "occupation",
    ],
    ("release", "append"): [
        "release",
        "append",
        "@DB@",
        "--release",
        "stream",
        "--from",
        "batch1",
        "--quiet",
    ],
}
ALGORITHM_BASE = {
    "full-domain": ["--levels", "age=3,sex=0", "--suppression-limit", "0.1"],
    "decomposition": ["--sa", "occupation,workclass", "--l", "3,2"],
    "topdown": ["--alpha", "0.5"],
}


def _anonymize_base(flag_help: str, dest: str) -> list[str]:
    algo = flag_help.split(":")[0] if ":" in flag_help else "bsgi"
    if dest in ("alpha", "categories", "category_weights", "beta", "entropy_over"):
        algo = "topdown"
    if dest in ("thresholds", "sensitivity"):
        algo = "lplus"
    algo = algo if algo in ALGORITHM_BASE or algo in ("bsgi", "mondrian", "lplus", "tp") else "bsgi"
    argv = ["anonymize", "@DB@", "--table", "census", "--qi", "age,sex", "--sa", "occupation", "--l", "3"]
    return [
        *argv,
        "--algorithm",
        algo,
        "--output",
        "fresh_out",
        "--quiet",
        "--no-kl",
        *ALGORITHM_BASE.get(algo, []),
    ]


def sweep(fx: Fixture, found: dict[str, list[tuple[Outcome, str, str | None]]]) -> None:
    """Each flag of each command with each value of a small hostile list, the rest of the line valid."""
    from .hostile_inputs import _flag_actions

    for path, parser in sorted(LEAVES.items()):
        if path not in BASE and path != ("anonymize",):
            continue
        for action in _flag_actions(parser)[1]:
            if action.nargs == 0:
                continue
            base = BASE.get(path) or _anonymize_base(action.help or "", action.dest)
            for value in SWEEP_VALUES:
                o = check(fx, [*base, action.option_strings[0], value])
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
