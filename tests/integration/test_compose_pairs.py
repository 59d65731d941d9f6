"""The composition check's pairs (``Composition.pairs``): many releases that leave rows below l, every pair
and every publish's pairs against the brute force of ``test_compose``, and the number of statements the
check sends as the releases grow (the pairs were counted by a run of the check's statements each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldiv_db
import ldiv_db.pipeline.compose as compose_module
from ldiv_db.db import Database
from ldiv_db.errors import LdivError
from tests.integration.test_compose import HIER, QI, THREE_BELOW, _copies, _store, brute_force, tables

# releases of every kind the check reads differently: local recodings (intervals), a sliced one, full-domain
# (one with every QI at its top: a class covering every target), l+ deleting rows and publishing unknown SAs
MANY = [
    ("hilbert", {}),
    ("bsgi", {}),
    ("mondrian", {}),
    ("tp", {}),
    ("full-domain", {"levels": "cat=1,num=0,flat=0", "suppression_limit": "1/2"}),
    ("full-domain", {"levels": "cat=0,num=1,flat=0", "suppression_limit": "1/2"}),
    ("lplus", {"suppression": "viorec", "qi": ["cat", "num"]}),
    ("lplus", {"suppression": "viosa", "qi": ["cat", "num"]}),
    ("full-domain", {"levels": "cat=2,num=2", "qi": ["cat", "num"]}),
]
MANY_LS = [2, 3, 2, 3, 2, 2, 2, 3, 2]


def _source(db: Database, rows: Sequence[tuple[Any, ...]]) -> None:
    db.con.register("rows_df", pd.DataFrame(rows, columns=[*QI, "s"]))
    db.con.execute('CREATE TABLE "t" AS SELECT * FROM rows_df')
    db.con.unregister("rows_df")
    for col, h in HIER.items():
        _store(db, col, h)


def _made(db: Database, algorithms: Sequence[tuple[str, dict[str, Any]]], ls: Sequence[int]) -> list[str]:
    names = []
    for i, ((algorithm, spec), l) in enumerate(zip(algorithms, ls, strict=True)):
        options = dict(spec)
        qi = options.pop("qi", QI)
        try:
            ldiv_db.anonymize(db, "t", qi, "s", algorithm=algorithm, l=l, output=f"r{i}", kl=False, **options)
        except LdivError:
            continue  # infeasible here: composed without it
        names.append(f"r{i}")
    return names


def _pairs_against_brute_force(db: Database, names: Sequence[str]) -> tuple[int, ...]:
    """Every pair's count and every publish's pairs against the brute force; the pairs' counts."""
    got = ldiv_db.compose(db, names, worst=0)
    ids = got.release_ids
    assert [(a, b) for a, b, _ in got.pairs] == [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    for a, b, n in got.pairs:
        pair = [ids.index(a), ids.index(b)]
        alone = brute_force(db, [names[p] for p in pair])["counts"]
        assert n == sum(c < min(got.ls[p] for p in pair) for c in alone), (a, b)
    for new in ids:  # a publish of any of them counts the pairs holding it, the same
        mine = compose_module.compose(db, list(ids), worst=0, pairs_with=new)
        assert mine.below == got.below
        assert mine.pairs == tuple(p for p in got.pairs if new in p[:2])
    return tuple(n for *_, n in got.pairs)


@pytest.mark.parametrize("bits", [62, 2])
def test_every_pair_of_many_releases_below_l_against_brute_force(
    bits: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nine releases of every kind, at l = 2 and 3, that leave rows below l together: every pair's rows
    below the smaller l are the brute force's, on one word of SA values and on two-value words."""
    monkeypatch.setattr(compose_module, "WORD_BITS", bits)
    db = Database.open(":memory:")
    try:
        _source(db, THREE_BELOW[0])
        names = _made(db, MANY, MANY_LS)
        assert len(names) >= 6
        assert not ldiv_db.compose(db, names, worst=0).ok
        counts = _pairs_against_brute_force(db, names)
        assert any(counts) and not all(counts)  # pairs below l and pairs that are not
    finally:
        db.close()


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(tables(), st.lists(st.sampled_from(MANY), min_size=3, max_size=4), st.sampled_from([62, 2]))
def test_random_sets_of_five_or_more_releases_against_brute_force(case: Any, more: Any, bits: int) -> None:
    rows, algorithms = case
    with pytest.MonkeyPatch.context() as m:
        m.setattr(compose_module, "WORD_BITS", bits)
        db = Database.open(":memory:")
        try:
            _source(db, rows)
            chosen = [*algorithms, *more]
            names = _made(db, chosen, [2 + i % 2 for i in range(len(chosen))])
            if len(names) >= 3:
                _pairs_against_brute_force(db, names)
        finally:
            db.close()


def test_pairs_are_counted_in_statements_linear_in_the_releases() -> None:
    """Mondrian and BSGI releases in turn leave rows below l together, so every pair is counted: once a
    run of the check's statements per pair (m(m - 1)/2 runs), now a fixed number for all of them. The
    statements grow by the same number per release (each release's own cover statements)."""
    db = Database.open(":memory:")
    try:
        _source(db, THREE_BELOW[0])
        ldiv_db.anonymize(db, "t", QI, "s", algorithm="mondrian", l=2, output="m0", kl=False)
        ldiv_db.anonymize(db, "t", QI, "s", algorithm="bsgi", l=2, output="b0", kl=False)
        mondrian, bsgi = ["m0", *_copies(db, "m0", 7)], ["b0", *_copies(db, "b0", 7)]
        sent: dict[int, int] = {}
        for m in (4, 8, 16):
            names = [x for pair in zip(mondrian[: m // 2], bsgi[: m // 2], strict=True) for x in pair]
            db.steps.clear()
            got = ldiv_db.compose(db, names, worst=0)
            sent[m] = len(db.steps)
            assert len(got.pairs) == m * (m - 1) // 2
            # a Mondrian release beside a BSGI one: below l; two copies of one release: not
            want = brute_force(db, names[:2])["counts"]
            below = sum(c < 2 for c in want)
            assert below and {n for *_, n in got.pairs} == {0, below}
    finally:
        db.close()
    assert sent[16] - sent[8] == 2 * (sent[8] - sent[4]), sent
