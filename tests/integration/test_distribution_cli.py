"""The distribution models where users meet them: ``ldiv check`` flags and --json keys, combinations with
an l model, clear refusals, a job file whose release is verified under t-closeness on every partition
it publishes, and ``ldiv check`` of that release agreeing with its recorded verdict. Expected figures are
derived by hand (the docstrings) or by the definition in Fractions, not read from the code."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from ldiv_db.cli.main import main

# zip -> disease: a = {flu, hiv, flu}, b = {cold, flu, hiv}, c = {cold}; the whole: flu 3, hiv 2, cold 2 of 7
ROWS = [("a", "flu"), ("a", "hiv"), ("a", "flu"), ("b", "cold"), ("b", "flu"), ("b", "hiv"), ("c", "cold")]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    csv = tmp_path / "t.csv"
    csv.write_text("zip;disease\n" + "\n".join(f"{z};{d}" for z, d in ROWS) + "\n")
    db = str(tmp_path / "t.duckdb")
    assert run(capsys, "load", db, str(csv), "--table", "t", "--sep", ";")[0] == 0
    return db


def test_check_json_keys(small: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Equal distance: class c = {cold} is (0, 0, 1) against (3/7, 2/7, 2/7): ½(3/7 + 2/7 + 5/7) = 5/7,
    the largest (a: 2/7, b: 2/21). β: c's cold rises from 2/7 to 1, a gain of 5/2. δ: a lacks cold, so the
    paper's δ is infinite; the reference tool's variant ignores it: a's flu 2/3 against 3/7 gives
    log2(14/9)."""
    code, out, err = run(
        capsys, "check", small, "--table", "t", "--qi", "zip", "--sa", "disease", "--json",
        "--model", "distinct,t-closeness,beta-likeness,delta-disclosure", "--l", "2",
        "--t", "5/7", "--beta", "5/2", "--delta", "100",
    )  # fmt: skip
    assert code == 1, err  # distinct-2 fails on c and delta (paper) on a and c
    d = json.loads(out)
    assert d["largest_t_exact"] == "5/7" and d["largest_beta_exact"] == "5/2"
    assert d["largest_delta"] == "inf" and d["violating_classes"] == 2
    code, out, _ = run(
        capsys, "check", small, "--table", "t", "--qi", "zip", "--sa", "disease", "--json",
        "--model", "delta-disclosure", "--delta", "1", "--delta-variant", "arx",
    )  # fmt: skip
    d = json.loads(out)
    import math

    # a: flu log2(14/9), hiv log2(7/6); b: each 1/3 against 3/7, 2/7: log2(9/7), log2(7/6); c: cold log2(7/2)
    assert d["largest_delta"] == pytest.approx(math.log2(7 / 2), rel=1e-12)
    assert d["violating_classes"] == 1 and code == 1
    code, out, _ = run(
        capsys, "check", small, "--table", "t", "--qi", "zip", "--sa", "disease", "--model", "t-closeness",
        "--t", "5/7",
    )  # fmt: skip
    assert code == 0 and "largest t" in out and "5/7" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "t-closeness"], "the t-closeness model needs t"),
        (["--model", "t-closeness", "--t", "0.2", "--distance", "ordered"], "--sa-order"),
        (["--model", "t-closeness", "--t", "2"], "--t must be a number in [0, 1]"),
        (["--model", "t-closeness", "--t", "0.2", "--distance", "hierarchical"], "ldiv hierarchy import"),
        (["--model", "beta-likeness"], "needs β"),
        (["--model", "delta-disclosure", "--delta", "0"], "--delta must be a number"),
        (["--model", "distinct,distinct", "--l", "2"], "named twice"),
        (
            ["--model", "t-closeness", "--t", "0.2", "--distance", "ordered", "--sa-order", "flu,hiv"],
            "lacks 1",
        ),
    ],
)
def test_refusals(small: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, _, err = run(capsys, "check", small, "--table", "t", "--qi", "zip", "--sa", "disease", *args)
    assert code == 2 and message in err and "Traceback" not in err, err


def test_ordered_by_declared_order(small: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Order cold < flu < hiv (baseline 2/7, 3/7, 2/7). c = (1, 0, 0): cumulative differences 5/7, 2/7, 0
    over M − 1 = 2: 1/2; a = (0, 2/3, 1/3): −2/7, −1/21, 0: 1/6; b = (1/3, 1/3, 1/3): 1/21, −1/21: 1/21."""
    code, out, err = run(
        capsys, "check", small, "--table", "t", "--qi", "zip", "--sa", "disease", "--json",
        "--model", "t-closeness", "--t", "1/2", "--distance", "ordered", "--sa-order", "cold,flu,hiv",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["largest_t_exact"] == "1/2"


def test_job_release_verified_and_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A job asks for distinct-2 and t = 1/10 at once on 40 rows; zip alone (level 0) fails t (derived
    below with the definition), so optimal generalizes zip; the release is verified under both models
    on every partition it publishes, against the source's baseline, and check of it agrees."""
    rows = [(f"1007{i % 4}", "abcd"[(i * 3 // 4) % 4] if i % 4 else "abcd"[i % 3]) for i in range(40)]
    csv = tmp_path / "people.csv"
    csv.write_text("zip;disease\n" + "\n".join(f"{z};{d}" for z, d in rows))
    h = tmp_path / "zip.csv"
    h.write_text("\n".join(f"1007{i};1007{'01'[i // 2]}*;*" for i in range(4)))
    db = str(tmp_path / "p.duckdb")
    assert run(capsys, "load", db, str(csv), "--table", "people", "--sep", ";")[0] == 0
    assert run(capsys, "hierarchy", "import", db, "--table", "people", "--column", "zip", str(h))[0] == 0
    whole = Counter(d for _, d in rows)

    def tv(cls: Counter[str]) -> Fraction:
        m = sum(cls.values())
        return sum((abs(Fraction(cls[v], m) - Fraction(whole[v], 40)) for v in whole), Fraction(0)) / 2

    by_zip = [Counter(d for z, d in rows if z == zz) for zz in sorted({z for z, _ in rows})]
    assert max(tv(c) for c in by_zip) > Fraction(1, 10)  # level 0 cannot be the answer
    job = tmp_path / "job.toml"
    job.write_text(
        f'database = "{Path(db).name}"\n[source]\ntable = "people"\n'
        '[anonymize]\nqi = ["zip"]\nsa = "disease"\nalgorithm = "optimal"\nmodel = ["distinct", "t-closeness"]\n'
        'l = 2\noutput = "rel"\n[anonymize.options]\nsuppression_limit = 0\n'
        "[anonymize.model_options]\nt = 0.1\n"
    )
    code, out, err = run(capsys, "run", str(job), "--json")
    assert code == 0, err
    release = json.loads(out)["release"]
    assert release["verified"]
    code, out, _ = run(capsys, "releases", db, "--json")
    parts = json.loads(out)["releases"][0]["verification"]
    assert [p["partition"] for p in parts] == ["classes", "labels"]
    for p in parts:
        assert p["holds"] and p["model"] == "distinct+t-closeness"
        tc = p["params"]["models"][1]["params"]
        assert tc["t"] == "1/10" and dict(map(tuple, tc["baseline"]["1"])) == dict(whole)
    code, out, err = run(
        capsys, "check", db, "--table", "rel", "--qi", "zip", "--sa", "disease", "--json",
        "--model", "distinct,t-closeness", "--l", "2", "--t", "1/10",
    )  # fmt: skip
    assert code == 0, err
    assert Fraction(json.loads(out)["largest_t_exact"]) <= Fraction(1, 10)


def test_unknown_sa_values(tmp_path: Path) -> None:
    """With --null-sa-unknown a NULL SA counts in |G| but is no value: the baseline is a 3, b 2 (the known
    rows). q = 2 holds NULLs only and has no distribution: it fails every model. q = 3 = {a, NULL} is
    (1, 0) against (3/5, 2/5): distance 2/5 ≤ 1/2, but it lacks b, so the paper's δ fails it too."""
    import duckdb

    import ldiv_db

    con = duckdb.connect()
    con.execute("CREATE TABLE t (row_id INTEGER, q INTEGER, s VARCHAR)")
    rows = [(1, "a"), (1, "b"), (2, None), (2, None), (3, "a"), (3, None), (4, "b"), (4, "a")]
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", [(i, q, s) for i, (q, s) in enumerate(rows, 1)])
    cases = [
        ({"model": "t-closeness", "t": "1/2"}, [2]),
        ({"model": "t-closeness", "t": "1/2", "distance": "ordered", "sa_order": ["a", "b"]}, [2]),
        ({"model": "delta-disclosure", "delta": 5}, [2, 3]),
        ({"model": "beta-likeness", "beta": 5}, [2]),
    ]
    for opts, bad in cases:
        r = ldiv_db.check(con, "t", ["q"], "s", null_sa_unknown=True, **opts)  # type: ignore[arg-type]
        assert sorted(w["key"]["q"] for w in r.worst) == bad, opts
    r = ldiv_db.check(con, "t", ["q"], "s", null_sa_unknown=True, model="t-closeness", t="2/5")
    assert r.violating_groups == 1  # q = 3 is at exactly 2/5
