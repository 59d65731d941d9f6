"""Decomposition+ through ``ldiv_db.anonymize`` and ``ldiv release`` (SPEC §4): the paper's example
(E-DEC) as an exact test against the committed expected tables, the three-table writer's guarantees
(reconciliation, verification, roll back of broken releases, the source untouched), continuous release
with its inference-channel check (checked independently in pandas), the CLI and the errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db import api
from ldiv_db.algorithms.decomposition import release as dr
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.errors import BadInput, InternalError, PrivacyViolation
from ldiv_db.sqlgen.render import Ident, TableRef, render
from ldiv_db.taxonomy import import_hierarchy
from tests.integration.frames import fix_drawn_seed, identity_seeds, make_table
from tests.memory import traced_peak

PAPER = PAPER_TABLES["decomposition_table1"]
QI = list(PAPER.qi)
SA = ["Occupation", "Salary"]


def paper(db: Database, name: str = "t") -> None:
    make_table(db, name, read_table(PAPER).sort_values("row_id"))
    for col, path in PAPER.hierarchies.items():
        import_hierarchy(db, name, col, path)


@pytest.fixture
def paper_order(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The paper's table, and runs without --seed drawing a seed whose tie key orders its rows as their
    row ids do (the order SPEC §4.6 forms the groups in); returns more such seeds (for --seed)."""
    paper(db)
    seeds = identity_seeds(db, "t", 9)
    fix_drawn_seed(monkeypatch, seeds[0])
    return seeds[1:]


def run(db: Database, **kw: Any) -> ldiv_db.AnonymizeResult:
    args: dict[str, Any] = {"algorithm": "decomposition", "l": [4, 4], "output": "rel"}
    args.update(kw)
    return ldiv_db.anonymize(db, args.pop("table", "t"), args.pop("qi", QI), args.pop("sa", SA), **args)


def table(db: Database, name: str) -> pd.DataFrame:
    return db.con.execute(f'SELECT * FROM "{name}"').df()


def memberships(db: Database, release_id: int) -> dict[int, int]:
    rows = db.con.execute(
        "SELECT source_rowid, group_id FROM ldiv.release_row WHERE release_id = ?", [release_id]
    ).fetchall()
    return {int(r): int(g) for r, g in rows}


def source_digest(db: Database, name: str = "t") -> Any:
    return db.con.execute(f'SELECT count(*), sum(hash(COLUMNS(*))) FROM "{name}"').fetchall()


# ---------------------------------------------------------------------------- E-DEC (SPEC §4.6)
def test_paper_example_exact(db: Database, paper_order: list[int]) -> None:
    before = source_digest(db)
    r = run(db)
    assert r.verified and r.groups == 2 and r.rows_published == 8 and r.details["rows_waiting"] == 0
    # groups {1,3,5,7} and {2,4,6,8} (SPEC §4.6, the paper's Table 4)
    got = memberships(db, r.release_id)
    groups_by_row = {rk + 1: g for rk, g in got.items()}
    members = {gid: sorted(rk for rk, g in groups_by_row.items() if g == gid) for gid in set(got.values())}
    assert sorted(members.values()) == [[1, 3, 5, 7], [2, 4, 6, 8]]
    # the QID-table: QIs unchanged, no SA, no identifier, the group id
    qid = table(db, "rel_qid")
    assert list(qid.columns) == [*QI, "group_id"]
    src = read_table(PAPER)
    merged = qid.merge(src, on=QI)
    assert len(merged) == 8
    assert {g: sorted(x) for g, x in merged.groupby("group_id")["row_id"]} == members
    # the SA-table equals the committed expected Decomposition+ table (the noise 7 chosen by distance)
    sa = table(db, "rel_sa")
    exp_sa = read_table(PAPER_TABLES["decomposition_table6"])
    exp_gid = {"1": groups_by_row[1], "2": groups_by_row[2]}
    gid_of_row1 = groups_by_row[1]
    for col in SA:
        for g, vals in exp_sa.groupby("group")[col]:
            assert sorted(sa.loc[sa["group_id"] == exp_gid[g], col]) == sorted(vals)
    # the noise: one copy of 8 in G1 became 7, counted and logged privately
    assert r.details["noise"] == 1 and r.details["noise_by_sa"] == {"Salary": 1}
    log = db.con.execute("SELECT group_id, sa, replaced, noise, distance FROM ldiv.noise").fetchall()
    assert log == [(gid_of_row1, "Salary", "8", "7", 0.5)]
    # the marginals are the 8 true (Occupation, Salary) pairs (Table 2), with no group id
    marg = table(db, "rel_marginals")
    assert list(marg.columns) == SA
    assert Counter(map(tuple, marg.astype(str).values.tolist())) == Counter(
        map(tuple, src[SA].astype(str).values.tolist())
    )
    assert source_digest(db) == before
    rec = db.con.execute(
        "SELECT name, algorithm, rows_in, rows_published, verified FROM ldiv.release"
    ).fetchall()
    assert rec == [("main.rel", "decomposition", 8, 8, True)]


def test_paper_example_random_noise_is_a_candidate_and_seeded(db: Database, paper_order: list[int]) -> None:
    picks = set()
    for seed in paper_order:  # each orders the rows as the paper does, and draws its own noise
        r = run(db, noise="random", seed=seed, replace=True)
        log = db.con.execute(
            "SELECT replaced, noise FROM ldiv.noise WHERE release_id = ?", [r.release_id]
        ).fetchall()
        assert len(log) == 1 and log[0][0] == "8"
        picks.add(log[0][1])
    assert picks == {"4", "7"}


# ---------------------------------------------------------------------------- broken releases
def _nothing_written(db: Database) -> None:
    for t in ("rel_qid", "rel_sa", "rel_marginals"):
        assert db.con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [t]
        ).fetchone() == (0,)
    assert db.con.execute("SELECT count(*) FROM ldiv.release").fetchone() == (0,)
    assert db.con.execute("SELECT count(*) FROM ldiv.release_row").fetchone() == (0,)
    assert db.con.execute("SELECT count(*) FROM ldiv.stream").fetchone() == (0,)
    assert db.con.execute("SELECT status FROM ldiv.run").fetchall()[-1] == ("failed",)


def _no_noise(*args: Any, **kwargs: Any) -> Any:
    from ldiv_db.algorithms.decomposition.noise import Noise

    return Noise([np.array(sa.codes, dtype=np.int64, copy=True) for sa in args[2]])


def test_a_group_without_noise_is_refused_before_writing(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    paper(db)
    before = source_digest(db)
    monkeypatch.setattr(dr, "add_noise", _no_noise)
    with pytest.raises(PrivacyViolation, match=r"not .*diverse.*nothing was written"):
        run(db)
    _nothing_written(db)
    assert source_digest(db) == before


def test_a_written_release_that_fails_verification_is_rolled_back(
    db: Database, monkeypatch: pytest.MonkeyPatch, paper_order: list[int]
) -> None:
    # the paper's grouping needs a noise value (SPEC §4.6): without it a group repeats a salary
    monkeypatch.setattr(dr, "add_noise", _no_noise)
    monkeypatch.setattr(dr, "check_new_groups", lambda *a, **k: None)  # let the broken groups through
    with pytest.raises(PrivacyViolation, match="written release violates"):
        run(db)
    _nothing_written(db)


def test_a_release_that_does_not_reconcile_is_rolled_back_and_the_previous_stays(
    db: Database, monkeypatch: pytest.MonkeyPatch, paper_order: list[int]
) -> None:
    first = run(db)  # the paper's release, with its one noise value
    qid_before = table(db, "rel_qid")
    monkeypatch.setattr(dr, "_reconcile_problems", lambda *a: ["deliberately broken"])
    with pytest.raises(InternalError, match="deliberately broken"):
        run(db, replace=True, noise="random", seed=1)
    pd.testing.assert_frame_equal(table(db, "rel_qid"), qid_before)
    assert db.con.execute("SELECT release_id, superseded_by FROM ldiv.release").fetchall() == [
        (first.release_id, None)
    ]
    assert db.con.execute("SELECT count(*) FROM ldiv.noise").fetchone() == (1,)


# ---------------------------------------------------------------------------- continuous release
def synthetic(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "zip": rng.integers(100, 110, n).astype(str),
            "age": rng.integers(20, 60, n),
            "job": rng.choice(["a", "b", "c", "d", "e", "f"], n, p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.1]),
            "pay": rng.choice(["1", "2", "3", "4", "5", "6", "7", "8", "9"], n),
            "unit": rng.choice(["u", "v", "w", "x"], n),
        }
    )


def pay_hierarchy(tmp_path: Path) -> Path:
    f = tmp_path / "pay.csv"
    f.write_text("".join(f"{v};g{(v - 1) // 3};*\n" for v in range(1, 10)), encoding="utf-8")
    return f


def independent_check(db: Database, ls: list[int], sa: list[str]) -> None:
    """Diversity of every group on the written SA-table and sizes against the QID-table, in pandas."""
    sat = table(db, "s_sa")
    qid = table(db, "s_qid")
    for col, l_i in zip(sa, ls, strict=True):
        assert (sat.groupby("group_id")[col].nunique() >= l_i).all()
    assert sat.groupby("group_id").size().equals(qid.groupby("group_id").size())


def test_continuous_release(db: Database, tmp_path: Path) -> None:
    full = synthetic(400, 7)
    batches = [full.iloc[i * 100 : (i + 1) * 100] for i in range(4)]
    for i, b in enumerate(batches):
        make_table(db, f"b{i}", b.reset_index(drop=True))
    import_hierarchy(db, "b0", "pay", pay_hierarchy(tmp_path))
    unit = tmp_path / "unit.csv"
    unit.write_text("u;uv;*\nv;uv;*\nw;wx;*\nx;wx;*\n", encoding="utf-8")
    import_hierarchy(db, "b0", "unit", unit)
    ls = [4, 3, 2]
    sa = ["job", "pay", "unit"]
    r = ldiv_db.anonymize(
        db, "b0", ["zip", "age"], sa, algorithm="decomposition", l=ls, output="s", starvation_threshold=1
    )
    assert r.verified
    seen: dict[int, int] = {}
    received = len(batches[0])
    for i in range(1, 4):
        before = dict(memberships(db, r.release_id))
        r = api.release_append(db, "s", f"b{i}")
        received += len(batches[i])
        now = memberships(db, r.release_id)
        # no row changes group, none disappears
        assert all(now.get(rk) == g for rk, g in before.items())
        for rk, g in now.items():
            assert seen.setdefault(rk, g) == g
        independent_check(db, ls, sa)
        waiting = db.con.execute('SELECT count(*), max(starvation) FROM ldiv."retained:main.s"').fetchone()
        assert waiting is not None
        assert r.rows_published + waiting[0] == received == r.rows_in
        assert waiting[1] is None or waiting[1] <= 1  # nobody waits beyond the threshold
        assert r.verification["inference_channel"] == {
            "moved": 0,
            "republished": 0,
            "sa_changed": 0,
            "grown": 0,
        }
    h = api.release_history(db, "s")
    assert [x["release"] for x in h.releases] == [1, 2, 3, 4]
    assert h.releases[-1]["rows_published"] + sum(w["rows"] for w in h.waiting) == received
    assert "waiting now" in h.render_text()


def test_inference_channel_check_refuses_a_moved_row(
    db: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    full = synthetic(120, 3)
    make_table(db, "b0", full.iloc[:60].reset_index(drop=True))
    make_table(db, "b1", full.iloc[60:].reset_index(drop=True))
    import_hierarchy(db, "b0", "pay", pay_hierarchy(tmp_path))
    first = ldiv_db.anonymize(
        db, "b0", ["zip"], ["job", "pay"], algorithm="decomposition", l=[3, 2], output="s"
    )
    real_build = dr._build

    def moving(*args: Any, **kwargs: Any) -> Any:
        built = real_build(*args, **kwargs)
        extra = pd.DataFrame(
            {"rk": [0], "gid": [int(built.assignment["gid"].max())]}
        )  # row 0 again, new group
        built.assignment = pd.concat([built.assignment, extra], ignore_index=True)
        return built

    monkeypatch.setattr(dr, "_build", moving)
    qid_before = table(db, "s_qid")
    with pytest.raises(PrivacyViolation, match="inference channel"):
        api.release_append(db, "s", "b1")
    pd.testing.assert_frame_equal(table(db, "s_qid"), qid_before)
    assert db.con.execute("SELECT max(release_id) FROM ldiv.release").fetchone() == (first.release_id,)


# ---------------------------------------------------------------------------- CLI and errors
def test_cli_anonymize_append_history(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.duckdb"
    db = Database.open(path)
    full = synthetic(200, 11)
    make_table(db, "first", full.iloc[:120].reset_index(drop=True))
    make_table(db, "more", full.iloc[120:].reset_index(drop=True))
    import_hierarchy(db, "first", "pay", pay_hierarchy(tmp_path))
    db.close()
    code = main(
        [
            "anonymize",
            str(path),
            "--table",
            "first",
            "--qi",
            "zip,age",
            "--sa",
            "job,pay",
            "--algorithm",
            "decomposition",
            "--l",
            "3,3",
            "--output",
            "rel",
            "--keep-columns",
            "unit",
            "--noise",
            "distance",
            "--starvation-threshold",
            "0",
            "--json",
            "--quiet",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verified"] and out["details"]["starvation_threshold"] == 0
    code = main(["release", "append", str(path), "--release", "rel", "--from", "more", "--json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verified"] and out["rows_in"] == 200
    code = main(["release", "history", str(path), "--release", "rel", "--json"])
    hist = json.loads(capsys.readouterr().out)
    assert code == 0 and len(hist["releases"]) == 2
    code = main(["releases", str(path)])
    assert code == 0 and "main.rel" in capsys.readouterr().out
    db = Database.open(path)
    assert list(table(db, "rel_qid").columns) == ["zip", "age", "unit", "group_id"]
    db.close()
    code = main(["release", "append", str(path), "--release", "nope", "--from", "more"])
    assert code == 2 and "no release stream" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"l": [4, 4], "model": "entropy"}, "distinct form"),
        ({"l": [6, 4]}, "infeasible"),
        ({"l": [3, 4]}, "larger than l = 3 of the primary SA"),
        ({"l": [4, 4], "noise": "bogus"}, "unknown --noise"),
        ({"l": [4, 4], "starvation_threshold": "x"}, "must be an integer"),
    ],
)
def test_bad_input_is_named(db: Database, kwargs: dict[str, Any], message: str) -> None:
    paper(db)
    with pytest.raises(BadInput, match=message):
        run(db, **kwargs)


def test_missing_hierarchy_and_existing_release(db: Database) -> None:
    make_table(db, "t", read_table(PAPER).sort_values("row_id"))
    with pytest.raises(BadInput, match="needs a hierarchy for the sensitive attribute 'Salary'"):
        run(db)
    seed = identity_seeds(db, "t")[0]  # the paper's row order, hence its one noise value
    r = run(db, noise="random", seed=seed)  # random noise needs no hierarchy
    assert r.verified and r.details["noise"] == 1
    with pytest.raises(BadInput, match="already exists"):
        run(db, noise="random")
    with pytest.raises(BadInput, match="no release stream"):
        api.release_append(db, "other", "t")


def test_job_file_publishes_a_decomposition_release(tmp_path: Path) -> None:
    from ldiv_db.commands.job import run_job

    data = tmp_path / "t.csv"
    read_table(PAPER).to_csv(data, sep=";", index=False)
    seed = 31  # the tie key's: the same seed, the same release
    job = tmp_path / "job.toml"
    job.write_text(
        f"""database = "j.duckdb"
[source]
table = "t"
load = "{data.name}"
sep = ";"
[hierarchies]
Salary = "{PAPER.hierarchies["Salary"]}"
[anonymize]
qi = {json.dumps(QI)}
sa = ["Occupation", "Salary"]
algorithm = "decomposition"
l = [4, 4]
output = "rel"
seed = {seed}
[anonymize.options]
noise = "distance"
starvation_threshold = 0
""",
        encoding="utf-8",
    )
    noise = []
    for _ in range(2):  # re-running replaces the release
        res = run_job(job)
        assert res.release is not None and res.release.verified
        noise.append(res.release.details["noise"])
    # the paper's grouping needs one noise value, the other grouping its tie key may give none
    assert noise[0] == noise[1] and noise[0] in (0, 1)


def test_hostile_names_and_an_empty_batch(hostile_db: Database) -> None:
    from fixtures.hostile import HOSTILE_QI

    r = ldiv_db.anonymize(
        hostile_db,
        "select",
        HOSTILE_QI[:2],
        ["ünï", "order"],
        algorithm="decomposition",
        l=[3, 2],
        output="it's out",
        noise="random",
        seed=2,
        keep_columns=["group"],
    )
    assert r.verified and r.rows_published + r.details["rows_waiting"] == 12
    sat = table(hostile_db, "it's out_sa")
    assert list(sat.columns) == ["group_id", "ünï", "order"]
    assert (sat.groupby("group_id")["ünï"].nunique() >= 3).all()
    assert (sat.groupby("group_id")["order"].nunique() >= 2).all()
    hostile_db.con.execute('CREATE TABLE "no rows" AS SELECT * FROM "select" LIMIT 0')
    again = api.release_append(hostile_db, "it's out", "no rows")
    assert again.verified and again.rows_in == 12 and again.details["rows_arriving"] == 0


def test_a_wrong_all_placed_is_caught_by_the_reconciliation(
    db: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The kept-back rows and the marginals skip their join to the assignment when the release places every
    pool row (StreamRelease._all_placed); told so of a release that keeps rows back, the reconciliation
    refuses it (published + kept back != received; marginals against the source rows) and nothing stays."""
    make_table(db, "b0", synthetic(100, 7))
    import_hierarchy(db, "b0", "pay", pay_hierarchy(tmp_path))
    kw: dict[str, Any] = {"algorithm": "decomposition", "l": [4, 3], "output": "s", "starvation_threshold": 1}
    r = ldiv_db.anonymize(db, "b0", ["zip", "age"], ["job", "pay"], **kw)
    waiting = db.con.execute('SELECT count(*) FROM ldiv."retained:main.s"').fetchone()
    assert waiting is not None and waiting[0] > 0 and r.rows_published + waiting[0] == 100
    marginals = table(db, "s_marginals")
    monkeypatch.setattr(dr.StreamRelease, "_all_placed", lambda self: True)
    with pytest.raises(InternalError) as err:
        ldiv_db.anonymize(db, "b0", ["zip", "age"], ["job", "pay"], replace=True, **kw)
    assert "kept back 0 != received 100" in str(err.value) and "marginal counts" in str(err.value)
    pd.testing.assert_frame_equal(table(db, "s_marginals"), marginals)


@pytest.mark.parametrize("seed", [1, 7])
def test_pool_codes_are_the_coders_of_the_text(db: Database, seed: int) -> None:
    """The pool fetched as codes of the exact spellings (Database.byte_collation: DuckDB) gives the rows,
    codes and values the text form gives: case variants of a case-insensitive column stay apart, NULL and
    the empty string are values of their own, first appearance follows the seeded key's order."""
    rng = np.random.default_rng(seed)
    n = 3000
    spellings = ["Sales", "sales", "SALES", "", "é", "e\u0301", " x", "x", None]
    frame = pd.DataFrame(
        {
            "zip": rng.integers(0, 9, n),
            "job": rng.choice(np.array(spellings, dtype=object), n),
            "pay": rng.choice(np.array(["1", "2", None, "Z", "z"], dtype=object), n),
        }
    )
    make_table(db, "src", frame)
    db.con.execute("CREATE OR REPLACE TABLE nocase (zip BIGINT, job VARCHAR COLLATE NOCASE, pay VARCHAR)")
    db.con.execute("INSERT INTO nocase SELECT zip, job, pay FROM src")
    pool = db.work_table("t_pool")
    db.run(
        render(
            "decomposition/pool.sql",
            {"offset": 5, "release": 1},
            target=pool,
            source=TableRef("nocase", "main"),
            columns=[Ident("zip"), Ident("job"), Ident("pay")],
            retained=None,
        )
    )
    slots = [Ident("c2"), Ident("c3")]
    cfg = _SlotConfig(slots)
    coded_frame, coded = dr._pool_rows(db, cfg, pool, seed)  # type: ignore[arg-type]
    assert db.byte_collation
    db.byte_collation = False  # type: ignore[misc]  # this connection as an engine without it
    text_frame, text = dr._pool_rows(db, cfg, pool, seed)  # type: ignore[arg-type]
    assert len(coded_frame) == n
    np.testing.assert_array_equal(coded_frame["rk"].to_numpy(), text_frame["rk"].to_numpy())
    np.testing.assert_array_equal(coded_frame["arrived"].to_numpy(), text_frame["arrived"].to_numpy())
    for a, b in zip(coded, text, strict=True):
        assert a.values == b.values and a.index == b.index
        np.testing.assert_array_equal(a.codes, b.codes)
        assert a.codes.dtype == b.codes.dtype
    assert {"Sales", "sales", "SALES", "", None} <= set(coded[0].values)


class _SlotConfig:
    """What _pool_rows reads of a stream's config: the SAs' pool slots."""

    def __init__(self, slots: list[Ident]) -> None:
        self._slots = slots
        self.sa = ["job", "pay"]

    def slots(self, names: Any) -> list[Ident]:
        return self._slots


def test_one_sa_stream_publishes_each_groups_true_values_in_order(db: Database) -> None:
    """With one SA there is no noise and no alignment to break (frames.sa_rows leaves its rows unsorted):
    every release's SA-table holds, per group, exactly the SA values of the group's source rows (through
    the private link), earlier releases' groups and rows that waited included, stored in group and value
    order."""
    full = synthetic(400, 11)
    for i in range(4):
        make_table(db, f"b{i}", full.iloc[i * 100 : (i + 1) * 100].reset_index(drop=True))
    r = ldiv_db.anonymize(
        db,
        "b0",
        ["zip", "age"],
        ["job"],
        algorithm="decomposition",
        l=[3],
        output="s",
        starvation_threshold=1,
    )
    kept = []
    for i in range(4):
        if i:
            r = api.release_append(db, "s", f"b{i}")
        kept.append(r.details["rows_kept_back"])
        truth = db.con.execute(
            """SELECT rr.group_id, b.job FROM ldiv.release_row rr
               JOIN ldiv.stream_row sr ON sr.row_key = rr.source_rowid AND sr.name = 'main.s'
               JOIN (SELECT 'main.b0' AS source, rowid AS rid, job FROM b0 UNION ALL
                     SELECT 'main.b1', rowid, job FROM b1 UNION ALL
                     SELECT 'main.b2', rowid, job FROM b2 UNION ALL
                     SELECT 'main.b3', rowid, job FROM b3) b ON b.source = sr.source AND b.rid = sr.source_rowid
               WHERE rr.release_id = ?""",
            [r.release_id],
        ).fetchall()
        written = db.con.execute('SELECT group_id, job FROM "s_sa"').fetchall()  # in stored order
        assert written == sorted(written)
        assert Counter(written) == Counter(truth)
    assert kept[0] > 0 and len(set(kept)) > 1  # rows waited, and were published later


def test_an_append_allocates_no_value_set_per_published_group_and_value(db: Database) -> None:
    """Issue 57: an append on a stream with an SA value per row built a bitset of every value for every
    published group (groups × values / 64 words, quadratic in the stream) that group forming never read;
    what an append allocates stays linear in its rows: at 20,000 + 5,000 rows about 6 MiB, where that
    bitset alone was 10,000 groups × 391 words = 30 MiB."""
    n = 20_000
    rows = pd.DataFrame({"id": np.arange(n + n // 4), "q": np.arange(n + n // 4) % 37})
    rows["s"] = "v" + rows["id"].astype(str)
    make_table(db, "first", rows.iloc[:n].reset_index(drop=True))
    make_table(db, "next", rows.iloc[n:].reset_index(drop=True))
    ldiv_db.anonymize(db, "first", ["q"], ["s"], algorithm="decomposition", l=[2], key="id", output="s")
    r, peak = traced_peak(lambda: api.release_append(db, "s", "next"))
    assert r.verified and r.rows_published == n + n // 4
    assert peak < 16 * 2**20, f"{peak / 2**20:.1f} MiB"


def test_noise_holds_no_primary_by_sa_matrix(db: Database) -> None:
    """Issue 57: the noise step held a primary × S_i matrix of which values co-occur (rows² bytes where both
    SAs have a value per row: 400 MB at 20,000 rows); the links it keeps are linear in the rows."""
    n = 20_000
    rows = pd.DataFrame({"id": np.arange(n), "q": np.arange(n) % 37})
    rows["p"] = "p" + rows["id"].astype(str)
    rows["s"] = "v" + ((rows["id"] * 7919) % 1_000_003).astype(str)
    make_table(db, "t", rows)
    r, peak = traced_peak(
        lambda: ldiv_db.anonymize(
            db,
            "t",
            ["q"],
            ["p", "s"],
            algorithm="decomposition",
            l=[2, 2],
            noise="random",
            key="id",
            output="o",
        )
    )
    assert r.verified and r.rows_published == n
    assert peak < 100 * 2**20, f"peak {peak / 2**20:.0f} MiB"
