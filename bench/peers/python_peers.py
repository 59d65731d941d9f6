"""The Python peers' side of the peers suite (bench/peers/suite.py): pycanon's k-anonymity and
l-diversity of a table, and anjana's l-diversity anonymization. It runs in the peers' own venv
(``python -m bench.peers --build`` makes it: both tools pin numpy and pandas to versions older than
ldiv_db's), so it imports neither ldiv_db nor anything of bench/. One JSON object on stdout.

  python python_peers.py pycanon CSV QI,QI,... SA REPEAT
  python python_peers.py anjana CSV QI,QI,... SA L SUPPRESSION_PERCENT HIERARCHY_PREFIX OUT_CSV

Seconds are the calls alone (the CSV is read before the clock starts); pycanon: each run of both
calls, best taken by the suite; CPU seconds beside (time.process_time); anjana: one run (it takes seconds), its release written to OUT_CSV.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time

import pandas as pd


def _read(csv: str) -> pd.DataFrame:
    return pd.read_csv(csv, sep=";", dtype=str, keep_default_na=False)


def pycanon_check(csv: str, qi: list[str], sa: str, repeat: int) -> dict[str, object]:
    from pycanon import anonymity

    frame = _read(csv)
    seconds, cpu, k, l_value = [], [], 0, 0
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        k = int(anonymity.k_anonymity(frame, qi))
        l_value = int(anonymity.l_diversity(frame, qi, [sa]))
        seconds.append(round(time.perf_counter() - t0, 4))
        cpu.append(round(time.process_time() - c0, 4))
    return {
        "tool": "pycanon",
        "seconds": seconds,
        "cpu_seconds": cpu,
        "k": k,
        "l": l_value,
        "rows": len(frame),
    }


def anjana_run(
    csv: str, qi: list[str], sa: str, l_div: int, percent: float, prefix: str, out: str
) -> dict[str, object]:
    from anjana.anonymity import l_diversity

    frame = _read(csv)
    hierarchies = {
        q: dict(pd.read_csv(f"{prefix}{q}.csv", sep=";", header=None, dtype=str, keep_default_na=False))
        for q in qi
    }
    t0, c0 = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()) as said:  # anjana prints its progress
        release = l_diversity(frame, [], qi, sa, l_div, l_div, percent, hierarchies)
    seconds, cpu = round(time.perf_counter() - t0, 4), round(time.process_time() - c0, 4)
    release = release.drop(columns=["index"], errors="ignore")
    release.to_csv(out, sep=";", index=False)
    return {
        "tool": "anjana",
        "seconds": [seconds],
        "cpu_seconds": [cpu],
        "rows": len(release),
        "deleted": len(frame) - len(release),
        "said": said.getvalue().strip()[-300:],
    }


def main(argv: list[str]) -> int:
    if len(argv) >= 5 and argv[0] == "pycanon":
        print(json.dumps(pycanon_check(argv[1], argv[2].split(","), argv[3], int(argv[4]))))
        return 0
    if len(argv) == 8 and argv[0] == "anjana":
        _, csv, qi, sa, l_div, percent, prefix, out = argv
        print(json.dumps(anjana_run(csv, qi.split(","), sa, int(l_div), float(percent), prefix, out)))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
