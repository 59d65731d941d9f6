"""One definition of class on Adult (l = 4, the BSGI benchmark's QIs, SA occupation): for TP+, BSGI and
Mondrian, the class count, k and risk of ``anonymize``, ``releases``, ``check``, ``report`` and
``compare`` (all ``--json``) agree with each other and with pandas by (group_id, QI labels); BSGI without
its group column is refused (its groups share labels, and the merged label classes repeat occupations).
Prints the figures. Slow: reads ../shared/datasets (never copied here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ldiv_db.commands.load import load
from ldiv_db.db import Database
from ldiv_db.taxonomy import import_hierarchy

from .test_classes import expected, run, same

ADULT = Path(__file__).parents[2].parent / "shared" / "datasets" / "adult"
QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
SA = "occupation"
L = 4

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def _anonymize(
    capsys: pytest.CaptureFixture[str], path: Path, algo: str, out: str, *extra: str
) -> tuple[int, Any, str]:
    return run(
        capsys, "anonymize", str(path), "--table", "adult", "--qi", ",".join(QI), "--sa", SA,
        "--algorithm", algo, "--l", str(L), "--output", out, "--quiet", "--json", "--no-kl", *extra,
    )  # fmt: skip


def test_every_output_shows_the_classes_on_adult(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "adult.duckdb"
    db = Database.open(path)
    load(db, ADULT / "adult.csv", "adult", sep=";")
    for c in QI:
        import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    db.close()
    code, cmp, err = run(
        capsys, "compare", str(path), "--table", "adult", "--qi", ",".join(QI), "--sa", SA, "--l", str(L),
        "--algorithms", "tp+,bsgi,mondrian", "--json", "--no-kl",
    )  # fmt: skip
    assert code == 0, err
    lines = []
    for e in cmp["entries"]:
        table = e["output"].split(".")[-1]
        want = expected(path, table, ["group_id", *QI])
        same(e, want, f"compare {e['label']}")
        assert e["dm"] == want["dm"]
        code, chk, _ = run(
            capsys, "check", str(path), "--table", table, "--qi", ",".join(QI), "--sa", SA, "--json"
        )
        same(chk, want, f"check {e['label']}")
        code, rep, _ = run(capsys, "report", str(path), "--release", table, "--json", "--no-kl")
        same(rep["releases"][0], want, f"report {e['label']}")
        code, rels, _ = run(capsys, "releases", str(path), "--json")
        same(next(r for r in rels["releases"] if r["name"] == e["output"]), want, f"releases {e['label']}")
        lines.append(
            f"{e['label']}: {want['classes']} classes (k {want['k']}; {want['label_classes']} label vectors), "
            f"risk average {want['risk']['average'] * 100:.2f} %, rows above 20 % "
            f"{want['risk']['above_20pct'] * 100:.2f} %"
        )
    code, anon, err = _anonymize(capsys, path, "tp+", "adult_tp")
    assert code == 0, err
    same(anon, expected(path, "adult_tp", ["group_id", *QI]), "anonymize tp+")
    code, out, err = _anonymize(capsys, path, "bsgi", "adult_bsgi_nogroup", "--no-group-column")
    assert code == 2 and out == "" and "unique-distinct" in err and "label classes" in err
    print("\n" + "\n".join(lines) + "\n" + err.strip())
