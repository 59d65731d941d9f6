"""The peers suite's own logic without Java or the peers' venv (bench/peers/): when each peer counts as
absent and the message then given, the spec ARX is handed, the parsing of its output, the table's
seconds, ratios and agreement, and a run with every peer absent (skipped, exit 0). Expected figures are
worked out by hand from the inputs written here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bench.peers import report, suite, tools
from bench.peers.ours import Dataset
from bench.peers.tools import Workload

PROGRAM_TEXT = "public class ArxPeers {}\n"


def _cache(tmp_path: Path, stamp: str | None, built: bool = True) -> tuple[Path, Path]:
    program = tmp_path / "ArxPeers.java"
    program.write_text(PROGRAM_TEXT)
    cache = tmp_path / "arx"
    (cache / "figures").mkdir(parents=True)
    if built:
        (cache / "figures" / "ArxPeers.class").write_bytes(b"\xca\xfe")
    if stamp is not None:
        (cache / "stamp").write_text(stamp)
    return cache, program


def test_arx_absent_without_java(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools.shutil, "which", lambda name: None)
    cache, program = _cache(tmp_path, "whatever")
    reason = tools.arx_unavailable(cache, program)
    assert reason is not None and reason.startswith("java not found")


def test_arx_absent_without_build_or_with_a_stale_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tools.shutil, "which", lambda name: "/usr/bin/java")
    cache, program = _cache(tmp_path, None)
    assert (
        tools.arx_unavailable(cache, program)
        == f"ARX's programs are not built in {cache}: set ARX_CLASSPATH to ARX 3.9.2's jars, run "
        "python -m bench.peers --build"
    )
    import hashlib

    mine = hashlib.sha256(PROGRAM_TEXT.encode()).hexdigest()[:16]
    (cache / "stamp").write_text("git:abc figures:0123456789abcdef peers:0000000000000000 java:17\n")
    stale = tools.arx_unavailable(cache, program)
    assert stale is not None and "ArxPeers.java changed since the build" in stale
    (cache / "stamp").write_text(f"git:abc figures:0123456789abcdef peers:{mine} java:17\n")
    assert tools.arx_unavailable(cache, program) is None
    (cache / "figures" / "ArxPeers.class").unlink()  # a stamp without the compiled program is no build
    assert tools.arx_unavailable(cache, program) is not None


def test_arx_programs_need_javac_and_the_users_arx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The project builds only its own programs, against jars the user names; without them it says why
    and writes nothing."""
    cache = tmp_path / "arx"
    monkeypatch.setattr(tools.shutil, "which", lambda name: None)
    assert tools.build_arx_programs(cache, "x.jar").startswith("skip: javac not found")
    monkeypatch.setattr(tools.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert tools.build_arx_programs(cache, "") == (
        "skip: ARX_CLASSPATH is not set (ARX 3.9.2's library jar and its dependency jars)"
    )
    absent = str(tmp_path / "libarx-3.9.2.jar")
    said = tools.build_arx_programs(cache, absent)
    assert said == f"skip: ARX_CLASSPATH names files that do not exist: {absent}"
    assert not cache.exists()


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac not found")
def test_arx_programs_that_do_not_compile_leave_no_build(tmp_path: Path) -> None:
    """A jar that is not ARX: javac fails, the message says so, and no stamp claims a build."""
    jar = tmp_path / "not-arx.jar"
    jar.write_bytes(b"PK\x05\x06" + b"\x00" * 18)  # an empty zip
    cache = tmp_path / "arx"
    said = tools.build_arx_programs(cache, str(jar))
    assert said.startswith("error: the programs did not compile against ARX_CLASSPATH")
    assert not (cache / "stamp").exists()
    assert tools.arx_unavailable(cache) is not None


def test_python_peers_absent_or_made_from_other_pins(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    pins = ["pycanon==1.3.5", "anjana==1.2.3"]
    absent = tools.python_peers_unavailable(venv, pins)
    assert absent is not None and "python -m bench.peers --build" in absent
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / tools.PINS_FILE).write_text("anjana==1.2.3\npycanon==1.3.4\n")
    other = tools.python_peers_unavailable(venv, pins)
    assert other is not None and "changed since" in other
    (venv / tools.PINS_FILE).write_text("anjana==1.2.3\npycanon==1.3.5\n")
    assert tools.python_peers_unavailable(venv, pins) is None


def test_the_pins_come_from_pyproject() -> None:
    pins = tools.peer_pins()
    assert {p.split("==")[0] for p in pins} == {"pycanon", "anjana"}
    assert all("==" in p for p in pins)  # exact: the venv is remade when they change


def test_spec_line_has_the_twelve_fields_of_arxpeers() -> None:
    ds = Dataset("ihis", Path("/d/ihis.csv"), "/h/ihis_hierarchy_", ["AGE", "SEX"], "EDUC")
    w = Workload("optimal_ihis_0", "label", "optimal", "ihis", "recursive", 3, 4.0, limit=0.0)
    assert tools.spec_line(w, ds, 3).split("\t") == [
        "optimal", "optimal_ihis_0", "/d/ihis.csv", "/h/ihis_hierarchy_", "AGE,SEX", "EDUC", "recursive",
        "3", "4.0", "0.0", "0", "3",
    ]  # fmt: skip
    adult = Dataset("adult", Path("/d/adult.csv"), "/h/a_", ["age"], "occupation")
    assert tools.spec_line(Workload("k", "l", "check", "adult", "distinct", 3), adult, 2).split("\t")[
        -2:
    ] == ["1", "2"]
    with pytest.raises(ValueError, match="tab"):
        tools.spec_line(w, Dataset("x", Path("/d/a\tb.csv"), "/h/", ["a"], "s"), 3)


def test_parse_arx_keeps_the_json_lines() -> None:
    out = "\n".join([
        "WARNING: an illegal reflective access",
        '{"name": "a", "kind": "check", "seconds": [0.5, 0.4]}',
        "some other line {",
        '{"name": "b", "kind": "optimal", "seconds": [1.0], "levels": [0, 1]}',
    ])  # fmt: skip
    parsed = tools.parse_arx(out)
    assert sorted(parsed) == ["a", "b"]
    assert parsed["b"]["levels"] == [0, 1]


CHECK = Workload("check_adult", "check statistics, Adult", "check", "adult", "recursive", 3, 4)
OPT = Workload("optimal_adult_distinct", "optimal, Adult", "optimal", "adult", "distinct", 3)
ANJANA = Workload("anjana_adult", "optimal vs anjana", "anjana", "adult", "distinct", 3)


def _ours_check(**kw: Any) -> dict[str, Any]:
    base = {"seconds": 0.3, "cpu_seconds": 0.2, "classes": 100, "violating_classes": 40, "violating_rows": 90,
            "k": 1, "distinct_l": 2, "load": 1.5}  # fmt: skip
    return {**base, **kw}


def test_check_rows_best_node_plus_statistics_and_agreement() -> None:
    # ARX's runs: node 0.5 + statistics 0.1 = 0.6, node 0.4 + statistics 0.3 = 0.7: best 0.6, not 0.4 + 0.1
    arx = {"check_adult": {"seconds": [0.5, 0.4], "seconds_statistics": [0.1, 0.3], "cpu_seconds": [0.45, 0.5],
                           "suppressed": 90, "classes": 60}}  # fmt: skip
    py = {"check_adult": {"seconds": [4.0, 3.0, 5.0], "cpu_seconds": [2.0, 2.5, 1.5], "k": 1, "l": 2}}
    rows = report.rows([CHECK], arx, py, {"check_adult": _ours_check()})
    assert [r["peer"] for r in rows] == ["ARX (node + class statistics)", "pycanon"]
    a, p = rows
    assert a["peer_seconds"] == pytest.approx(0.6) and a["peer_cpu_seconds"] == 0.45
    assert a["ratio"] == pytest.approx(0.5)  # 0.3 / 0.6
    assert a["ok"] and a["agree"].startswith("same")
    assert p["peer_seconds"] == 3.0 and p["peer_cpu_seconds"] == 1.5 and p["ratio"] == pytest.approx(0.1)
    assert p["ok"]
    # 100 classes, 40 violating: ARX keeping 59 is a disagreement, and so is pycanon's l = 3
    arx["check_adult"]["classes"] = 59
    py["check_adult"]["l"] = 3
    a, p = report.rows([CHECK], arx, py, {"check_adult": _ours_check()})
    assert not a["ok"] and a["agree"].startswith("DIFFERENT")
    assert not p["ok"] and p["agree"].startswith("DIFFERENT")


@pytest.mark.parametrize(
    ("ours", "ok", "words"),
    [
        ({"levels": [0, 3], "deleted": 5, "loss": 0.2}, True, "same optimum 0,3"),
        ({"levels": [1, 2], "deleted": 9, "loss": 0.19}, True, "lower Loss"),
        ({"levels": [1, 2], "deleted": 9, "loss": 0.2 + 1e-12}, True, "same Loss"),
        ({"levels": [1, 2], "deleted": 9, "loss": 0.21}, False, "WORSE"),
    ],
)
def test_optimal_agreement(ours: dict[str, Any], ok: bool, words: str) -> None:
    arx = {"optimal_adult_distinct": {"seconds": [2.0, 1.0, 4.0], "cpu_seconds": [1.0, 0.9, 1.1], "levels": [0, 3],
                                      "deleted": 5, "loss": 0.2}}  # fmt: skip
    mine = {"seconds": 0.5, "cpu_seconds": 0.4, "verified": True, "load": 2.0, **ours}
    (row,) = report.rows([OPT], arx, {}, {"optimal_adult_distinct": mine})
    assert row["ok"] is ok and words in row["agree"]
    assert row["peer_seconds"] == 1.0 and row["ratio"] == pytest.approx(0.5)


def test_an_unverified_release_fails_the_row() -> None:
    arx = {
        "optimal_adult_distinct": {
            "seconds": [1.0],
            "cpu_seconds": [1.0],
            "levels": [0],
            "deleted": 0,
            "loss": 0.1,
        }
    }
    mine = {"seconds": 0.5, "cpu_seconds": 0.4, "levels": [0], "deleted": 0, "loss": 0.1, "verified": False}
    (row,) = report.rows([OPT], arx, {}, {"optimal_adult_distinct": mine})
    assert not row["ok"]


def test_anjana_row_and_a_skipped_peer() -> None:
    py = {"anjana_adult": {"seconds": [8.0], "cpu_seconds": [4.0], "deleted": 1219,
                           "measured": {"ncp": 0.537, "holds": True}}}  # fmt: skip
    mine = {"seconds": 0.4, "cpu_seconds": 0.3, "ncp": 0.165, "deleted": 1102, "verified": True}
    (row,) = report.rows([ANJANA], {}, py, {"anjana_adult": mine})
    assert row["ratio"] == pytest.approx(0.05)
    assert (
        "NCP 0.165" in row["agree"] and "anjana's 0.537" in row["agree"] and "holds the model" in row["agree"]
    )
    (skipped,) = report.rows([OPT], {}, {}, {"optimal_adult_distinct": {**mine, "levels": [0], "loss": 0.1}})
    assert skipped["peer"].endswith("(peer skipped)") and skipped["ratio"] is None and skipped["ok"]
    table = report.render([row, skipped], "now", (1.0, 2.0, 3.0), (1.5, 2.5, 3.5))
    assert "| optimal vs anjana | anjana | 8.000 (4.000) | 0.400 (0.300) | 0.05× |" in table
    assert "| optimal, Adult | – (peer skipped) | – | 0.400 (0.300) | – |" in table


def test_every_peer_absent_is_skipped_not_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No Java, no venv: both skipped with their messages, ldiv_db's side alone (stubbed here), exit 0."""
    if not (suite.ADULT / "adult.csv").exists():
        pytest.skip("shared/datasets/adult is absent")

    def never(*args: Any, **kw: Any) -> Any:
        raise AssertionError("a skipped peer was run")

    monkeypatch.setattr(tools.shutil, "which", lambda name: None)
    monkeypatch.setattr(suite, "python_peers_unavailable", lambda: "pycanon and anjana are not installed")
    monkeypatch.setattr(suite, "run_arx", never)
    monkeypatch.setattr(suite, "run_python_peers", never)
    monkeypatch.setattr(suite, "build", never)
    ours = {"seconds": 0.3, "cpu_seconds": 0.2, "levels": [0], "deleted": 0, "loss": 0.1, "verified": True}
    monkeypatch.setattr(suite, "run_ours", lambda workloads, *a: {w.key: dict(ours) for w in workloads})
    monkeypatch.setattr(suite, "RESULTS", tmp_path / "peers.json")
    assert suite.main(["--only", "optimal"]) == 0
    out = capsys.readouterr().out
    assert "skip ARX: java not found" in out
    assert "skip pycanon and anjana: pycanon and anjana are not installed" in out
    saved = json.loads((tmp_path / "peers.json").read_text())
    assert saved["skipped"]["arx"].startswith("java not found")
    assert [r["key"] for r in saved["rows"]] == ["optimal_adult_distinct", "optimal_adult_entropy",
                                                  "optimal_adult_recursive"]  # fmt: skip
    assert all(r["peer"].endswith("(peer skipped)") for r in saved["rows"])


def test_a_large_workload_arx_did_not_finish() -> None:
    w = Workload(
        "optimal_ihis_0", "optimal, IHIS-shaped", "optimal", "ihis", "recursive", 3, 4, limit=0.0, large=True
    )
    mine = {"seconds": 3.0, "cpu_seconds": 2.0, "levels": [1], "deleted": 0, "loss": 0.3, "verified": True}
    (row,) = report.rows([w], {w.key: {"name": w.key, "unfinished_after": 900.0}}, {}, {w.key: mine})
    assert row["agree"] == "ARX unfinished after 900 s (stopped)" and row["ratio"] is None and row["ok"]


def test_workloads_chosen_by_kind_or_key() -> None:
    assert [w.key for w in suite.chosen("check", large=False)] == ["check_million", "check_adult"]
    assert [w.key for w in suite.chosen("optimal_ihis_5,anjana", large=True)] == [
        "optimal_ihis_5",
        "anjana_adult",
    ]
    assert suite.chosen("optimal_ihis_5", large=False) == []  # large ones only with --large


@pytest.mark.parametrize(
    ("args", "words"), [(["--repeat", "0"], "--repeat 0"), (["--only", "optimal_ihis_0"], "--large")]
)
def test_bad_options_are_refused_with_the_fix(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        suite.main(args)
    assert stop.value.code == 2
    assert words in capsys.readouterr().err
