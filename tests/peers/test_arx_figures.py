"""ldiv_db's figures against the reference tool's, run live: ARX 3.9.2 (the user's, named by ARX_CLASSPATH;
the project's programs compiled against it by ``python -m bench.peers --build``), its figures printed by bench/peers/ArxFigures.java (Adult, Flash, 5 %
suppression limit, Loss gs = 0.5). Compared: the optimal node (levels, rows deleted, Loss) under
t-closeness with the hierarchical and the ordered ground distance, basic and enhanced β-likeness and
δ-disclosure (ARX's variant), ``ldiv check`` of each release, and ``ldiv risk``'s population estimates on
the raw table. Where the conventions differ (δ-disclosure's paper definition, SNB), the test asserts the
documented difference (docs/decisions/0014 and 0015, bench/peers/README.md). Skipped with a message when the build is absent."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ldiv_db.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
CACHE = Path(os.environ.get("ARX_CACHE", Path.home() / ".cache" / "ldiv_db" / "arx"))
FIGURES = ROOT / "bench" / "peers" / "ArxFigures.java"
QI8 = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
QI7 = [q for q in QI8 if q != "age"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (ADULT / "adult.csv").exists(), reason="shared/datasets/adult is absent"),
]


def _built() -> str | None:
    """Why the ARX build cannot be used, or None."""
    if shutil.which("java") is None:
        return "java not found: the reference tool needs Java 17"
    stamp = CACHE / "stamp"
    if not stamp.exists() or not (CACHE / "figures" / "ArxFigures.class").exists():
        return (
            f"ARX's programs are not built in {CACHE}: set ARX_CLASSPATH, run python -m bench.peers --build"
        )
    digest = hashlib.sha256(FIGURES.read_bytes()).hexdigest()[:16]
    if f"figures:{digest}" not in stamp.read_text():
        return "bench/peers/ArxFigures.java changed since the build: run python -m bench.peers --build"
    return None


@pytest.fixture(scope="module")
def arx() -> dict[str, Any]:
    reason = _built()
    if reason:
        pytest.skip(reason)
    cp = (CACHE / "classpath.txt").read_text().strip() + os.pathsep + str(CACHE / "figures")
    run = subprocess.run(
        ["java", "-Xmx1g", "-cp", cp, "ArxFigures", str(ADULT)],
        capture_output=True, text=True, timeout=900, check=True,
    )  # fmt: skip
    figures: dict[str, Any] = json.loads(run.stdout)
    return figures


def _ldiv(capsys: pytest.CaptureFixture[str], *args: str, status: int = 0) -> dict[str, Any]:
    """One CLI call's JSON; ``check`` exits 1 when the model does not hold."""
    capsys.readouterr()
    assert main([*args, "--json"]) == status
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


@pytest.fixture(scope="module")
def adult(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("peers") / "adult.duckdb")
    assert main(["load", path, str(ADULT / "adult.csv"), "--table", "adult", "--sep", ";"]) == 0
    for col in [*QI8, "occupation"]:
        csv = str(ADULT / f"adult_hierarchy_{col}.csv")
        assert main(["hierarchy", "import", path, "--table", "adult", "--column", col, csv]) == 0
    return path


# ARX's case name -> (SA, QIs, ldiv_db's model options in ARX's convention, the check statistic)
CASES: dict[str, tuple[str, list[str], list[str], str]] = {
    "hierarchical_t_0.2": ("occupation", QI8, ["t-closeness", "--t", "0.2", "--distance", "hierarchical"], "t"),
    "hierarchical_t_0.15": ("occupation", QI8, ["t-closeness", "--t", "0.15", "--distance", "hierarchical"], "t"),
    "ordered_t_0.1": ("age", QI7, ["t-closeness", "--t", "0.1", "--distance", "ordered"], "t"),
    "ordered_t_0.05": ("age", QI7, ["t-closeness", "--t", "0.05", "--distance", "ordered"], "t"),
    "beta_basic_1.0": ("occupation", QI8, ["beta-likeness", "--beta", "1", "--likeness", "basic"], "beta"),
    "beta_basic_3.0": ("occupation", QI8, ["beta-likeness", "--beta", "3", "--likeness", "basic"], "beta"),
    "beta_enhanced_1.0": ("occupation", QI8, ["beta-likeness", "--beta", "1", "--likeness", "enhanced"], "beta"),
    "beta_enhanced_3.0": ("occupation", QI8, ["beta-likeness", "--beta", "3", "--likeness", "enhanced"], "beta"),
    "delta_2.0": ("occupation", QI8, ["delta-disclosure", "--delta", "2", "--delta-variant", "arx"], "delta"),
    "delta_3.0": ("occupation", QI8, ["delta-disclosure", "--delta", "3", "--delta-variant", "arx"], "delta"),
}  # fmt: skip


def test_build_is_the_reference_tool(arx: dict[str, Any]) -> None:
    """The build reproduces issue 56's reference node (equal t = 0.2, alone and with distinct-3)."""
    for name in ("equal_t", "distinct3_equal_t"):
        node = arx["nodes"][name]
        print(name, node["levels"], node["deleted"], node["loss"])
        assert node["levels"] == [1, 4, 1, 1, 3, 1, 2, 1]
        assert node["deleted"] == 235
        assert round(node["loss"], 5) == 0.81500
    # Enhanced β-likeness bounds a value's gain by min(β, -ln p): above β = -ln(4038/30162) ≈ 2.01 it is
    # stricter than basic, so the β = 3 cases tell the two definitions apart (β = 1 cannot).
    assert arx["nodes"]["beta_basic_3.0"]["levels"] != arx["nodes"]["beta_enhanced_3.0"]["levels"]


@pytest.mark.parametrize("name", list(CASES))
def test_optimal_node_as_arx(
    arx: dict[str, Any], adult: str, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    sa, qis, model, stat = CASES[name]
    ref = arx["nodes"][name]
    assert ref["qi"] == qis and ref["sa"] == sa  # the same question asked of both tools
    out = name.replace(".", "_")
    common = [adult, "--table", "adult", "--qi", ",".join(qis), "--sa", sa]
    res = _ldiv(
        capsys, "anonymize", *common, "--algorithm", "optimal", "--output", out, "--replace", "--quiet",
        "--suppression-limit", "0.05", "--metric", "loss", "--model", *model,
    )  # fmt: skip
    levels = [res["details"]["levels"][q] for q in qis]
    loss = res["metrics"]["arx_loss"]
    checked = _ldiv(
        capsys, "check", adult, "--table", out, "--qi", ",".join(qis), "--sa", sa, "--model", *model
    )
    largest = checked[f"largest_{stat}"]
    print(name, "ARX", ref["levels"], ref["deleted"], ref["loss"], "| ldiv", levels, res["rows_deleted"], loss,
          f"classes {res['classes']}, largest {stat} {largest}")  # fmt: skip
    assert res["verified"]
    assert levels == ref["levels"]
    assert res["rows_deleted"] == ref["deleted"]
    assert loss == pytest.approx(ref["loss"], abs=1e-9)
    assert checked["satisfied"] and largest <= float(model[2])


def test_delta_paper_definition_differs(
    arx: dict[str, Any], adult: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """ARX's δ-disclosure ignores SA values absent from a class (log₂); the paper's fails such a class
    (decision 0014, 3). ARX's δ = 2 node's release has classes missing an occupation, so the paper's
    check of it fails those classes (δ infinite), while ARX's variant passes it."""
    ref = arx["nodes"]["delta_2.0"]
    common = ["--qi", ",".join(QI8), "--sa", "occupation", "--model", "delta-disclosure", "--delta", "2"]
    _ldiv(
        capsys, "anonymize", adult, "--table", "adult", *common, "--delta-variant", "arx",
        "--algorithm", "full-domain", "--output", "delta_arx", "--replace", "--quiet",
        "--suppression-limit", "0.05", "--levels", _levels(ref["levels"]),
    )  # fmt: skip
    arx_variant = _ldiv(capsys, "check", adult, "--table", "delta_arx", *common, "--delta-variant", "arx")
    paper = _ldiv(capsys, "check", adult, "--table", "delta_arx", *common, "--worst", "0", status=1)
    n_values = len(_values(adult))
    missing = _classes_missing_a_value(adult, n_values)
    print("paper's check of ARX's δ=2 node:", paper["violating_classes"], "of", paper["classes"],
          "classes fail;", missing, "classes lack one of", n_values, "occupations")  # fmt: skip
    assert arx_variant["satisfied"] and arx_variant["largest_delta"] < 2
    assert missing > 0
    assert not paper["satisfied"] and paper["largest_delta"] == "inf"
    assert paper["violating_classes"] == missing


def _levels(levels: list[int]) -> str:
    return ",".join(f"{q}={v}" for q, v in zip(QI8, levels, strict=True))


def _values(path: str) -> list[str]:
    import duckdb

    with duckdb.connect(path, read_only=True) as con:
        rows = con.execute("select distinct occupation from adult where occupation is not null").fetchall()
    return [r[0] for r in rows]


def _classes_missing_a_value(path: str, n_values: int) -> int:
    """Brute force in pandas: the release's classes (its group column) holding fewer distinct SA values
    than the source."""
    import duckdb

    with duckdb.connect(path, read_only=True) as con:
        frame = con.execute("select group_id, occupation from delta_arx").df()
    distinct = frame.groupby("group_id")["occupation"].nunique()
    return int((distinct < n_values).sum())


@pytest.mark.parametrize("fraction", [0.01, 0.1, 0.5])
def test_population_estimates_as_arx(
    arx: dict[str, Any], adult: str, capsys: pytest.CaptureFixture[str], fraction: float
) -> None:
    """Pitman, Zayatz and Dankar's rule on the raw table (8 QIs) as ARX computes them, each divided by the
    population size; the sample figures exactly. SNB: ARX's Newton-Raphson solve gives no valid estimate
    on Adult (reported as unavailable, 0 in its figures), ldiv_db's closed-form moments give one
    (bench/peers/README.md); Dankar's rule then picks the same model's figure in both."""
    ref = arx["risk"]
    pop = next(p for p in ref["population"] if p["sampling_fraction"] == fraction)
    got = _ldiv(
        capsys, "risk", adult, "--table", "adult", "--qi", ",".join(QI8), "--sampling-fraction", str(fraction)
    )
    fig = {f["key"]: f["value"] for f in got["figures"]}
    print(fraction, "ARX", {k: pop[k] for k in ("pitman", "zayatz", "snb", "dankar", "dankar_model")},
          "| ldiv", {k: fig[k] for k in ("pitman", "zayatz", "snb", "dankar")}, got["population"]["dankar_model"])  # fmt: skip
    assert got["population"]["size"] == pop["population_size"]
    assert (got["rows"], got["classes"]) == (ref["rows"], ref["classes"])
    assert fig["prosecutor_highest"] == ref["prosecutor_highest"]
    assert fig["prosecutor_average"] == pytest.approx(ref["prosecutor_average"], rel=1e-12)
    assert fig["sample_uniques"] == pytest.approx(ref["sample_uniques"], rel=1e-12)
    assert fig["prosecutor_above"] == pytest.approx(ref["prosecutor_above_0.2"], rel=1e-12)
    assert fig["zayatz"] == pytest.approx(pop["zayatz"], rel=1e-8)
    assert fig["pitman"] == pytest.approx(pop["pitman"], rel=1e-5)  # two numerical solvers of one likelihood
    assert pop["snb"] is None
    assert fig["snb"] is not None and 0 < fig["snb"] < 1 and math.isfinite(fig["snb"])
    assert got["population"]["dankar_model"] == pop["dankar_model"].lower()
    assert fig["dankar"] == pytest.approx(pop["dankar"], rel=1e-5)


def test_release_risk_as_arx(arx: dict[str, Any], adult: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The sample risks of a release (distinct-3, optimal at 5 %): both tools leave the deleted records
    out and measure the published classes; ``ldiv risk --release`` uses the finest partition the release
    publishes, which for this full-domain release is ARX's classes."""
    ref = arx["release_risk"]
    _ldiv(
        capsys, "anonymize", adult, "--table", "adult", "--qi", ",".join(QI8), "--sa", "occupation",
        "--algorithm", "optimal", "--output", "distinct3", "--replace", "--quiet",
        "--suppression-limit", "0.05", "--metric", "loss", "--model", "distinct", "--l", "3",
    )  # fmt: skip
    got = _ldiv(capsys, "risk", adult, "--release", "distinct3", "--threshold", "0.2")
    fig = {f["key"]: f["value"] for f in got["figures"]}
    print(
        "ARX",
        ref,
        "| ldiv",
        got["rows"],
        got["classes"],
        {k: fig[k] for k in fig if k.startswith("prosecutor")},
    )
    assert (got["rows"], got["classes"]) == (ref["records"], ref["classes"])
    assert fig["prosecutor_highest"] == pytest.approx(ref["prosecutor_highest"], rel=1e-12)
    assert fig["prosecutor_average"] == pytest.approx(ref["prosecutor_average"], rel=1e-12)
    assert fig["prosecutor_above"] == pytest.approx(ref["prosecutor_above_0.2"], rel=1e-12)
    assert fig["sample_uniques"] == ref["sample_uniques"]
