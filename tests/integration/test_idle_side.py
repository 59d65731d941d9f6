"""The metrics' source side (a second reader) starts where the algorithm's own work leaves a core idle
(``Algorithm.calls_idle``): TP+ starts it with the statement that writes its staying rows, while Hilbert-l
groups the residue in Python; any other algorithm has it read beside its whole run, started before it."""

from __future__ import annotations

import importlib
import threading
from typing import Any

import pandas as pd
import pytest

import ldiv_db
from ldiv_db.algorithms import tp
from ldiv_db.algorithms.mondrian import Mondrian
from ldiv_db.db import Database
from tests.integration.frames import make_table
from tests.integration.test_keyed_ties import _frame

anonymize_module = importlib.import_module(
    "ldiv_db.commands.anonymize"
)  # the package's name is the function's


def _record(monkeypatch: pytest.MonkeyPatch, events: list[str], owner: Any, name: str, event: str) -> None:
    real = getattr(owner, name)

    def recorded(*args: Any, **kw: Any) -> Any:
        events.append(event)
        return real(*args, **kw)

    monkeypatch.setattr(owner, name, recorded)


def _anonymize(db: Database, algorithm: str) -> ldiv_db.AnonymizeResult:
    r = ldiv_db.anonymize(
        db, "t", ["a", "b", "c"], "s", algorithm=algorithm, output="o", replace=True, l=3, seed=4
    )
    assert r.verified
    return r


def test_tp_plus_starts_the_source_side_beside_hilbert(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    _record(monkeypatch, events, anonymize_module, "start_source_side", "side")
    _record(monkeypatch, events, tp, "run_tp", "tp")
    _record(monkeypatch, events, tp, "assign", "assign")
    make_table(db, "t", _frame(500, 7))
    before = _anonymize(db, "tp+")
    assert before.details["residue_rows"] > 0  # Hilbert-l ran beside the staying rows' statement
    assert events == ["tp", "side", "assign"]
    assert not [t for t in threading.enumerate() if t.name.startswith("ldiv-source")]


def test_tp_plus_without_a_residue_starts_it_after_its_run(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No residue, no grouping beside a statement: the reader starts once the run returns, beside the write."""
    events: list[str] = []
    _record(monkeypatch, events, anonymize_module, "start_source_side", "side")
    _record(monkeypatch, events, tp, "assign", "assign")
    rows = [
        (20 + g, "x", "p", f"v{k % 6}") for g in range(20) for k in range(12)
    ]  # every QI-group l-eligible
    make_table(db, "t", pd.DataFrame(rows, columns=["a", "b", "c", "s"]))
    r = _anonymize(db, "tp+")
    assert r.details["residue_rows"] == 0
    assert events == ["assign", "side"]


def test_other_algorithms_start_it_before_their_run(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    _record(monkeypatch, events, anonymize_module, "start_source_side", "side")
    _record(monkeypatch, events, Mondrian, "run", "run")
    make_table(db, "t", _frame(500, 7))
    _anonymize(db, "mondrian")
    assert events == ["side", "run"]
