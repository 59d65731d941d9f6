"""Check a release once it is written, inside the release transaction: its rows and SA values reconcile
with the source, the privacy model holds on the written table (by group id, and by QI labels as an
attacker groups them), and its utility metrics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..algorithms.base import Partitioning, lca_kinds
from ..catalog import table_at
from ..check import CheckResult, evaluate
from ..db import Database
from ..errors import InternalError
from ..inputs import Inputs
from ..privacy import Distinct, PrivacyModel, UniqueDistinct
from ..progress import Progress
from ..render import TableRef, render


@dataclass(frozen=True)
class Checked:
    """What the checks of one written release found."""

    reconciliation: dict[str, int]
    by_group: CheckResult | None
    by_labels: CheckResult | None
    verified: bool
    verification: dict[str, Any]
    metrics: dict[str, Any]


def check_written(
    db: Database,
    inputs: Inputs,
    part: Partitioning,
    out: TableRef,
    group_column: str,
    verify_model: PrivacyModel,
    privacy: PrivacyModel,
    *,
    class_column: str | None,
    hids: Mapping[str, int],
    null_as_value: bool,
    kl: bool,
    progress: Progress,
) -> Checked:
    """Reconcile, verify and measure the release just written to ``out``. A release that does not
    reconcile raises :class:`InternalError`; a failed verification is reported in ``verified`` (the
    caller refuses to publish it)."""
    rec = reconcile(db, inputs, part, out)
    progress.update(2, 5, "written and reconciled; verifying")
    published = table_at(db, out)
    out_inputs = Inputs(
        published,
        tuple(published.column(c.name) for c in inputs.qi),
        tuple(published.column(c.name) for c in inputs.sa),
        published.column(group_column),
        int(rec["published"]),
    )
    by_group: CheckResult | None = None
    by_labels: CheckResult | None = None
    if out_inputs.rows:
        by_group = evaluate(db, out_inputs, verify_model, null_as_value=null_as_value, prefix="verify_g")
        label_inputs = Inputs(out_inputs.table, out_inputs.qi, out_inputs.sa, None, out_inputs.rows)
        by_labels = evaluate(
            db, label_inputs, union_stable(verify_model), null_as_value=null_as_value, prefix="verify_q"
        )
    verified = bool(by_group is None or (by_group.satisfied and by_labels and by_labels.satisfied))
    verification = {
        "model": verify_model.describe(),
        "by_group": None if by_group is None else brief(by_group),
        "by_qi_labels": None if by_labels is None else brief(by_labels),
        "reconciliation": dict(rec),
    }
    progress.update(3, 5, "verified; computing metrics")
    intervals = [k == "numeric" for k in lca_kinds(inputs.qi, hids)] if part.recoding == "lca" else None
    from ..metrics import compute_metrics

    metrics = compute_metrics(
        db,
        inputs.table,
        published,
        list(inputs.qi),
        list(inputs.sa),
        l=privacy.ls[0] if privacy.ls else None,
        class_column=class_column,
        group_column=group_column,
        interval_labels=intervals,
        kl=kl,
        weights=part.metric_weights,
    ).to_dict()
    return Checked(rec, by_group, by_labels, verified, verification, metrics)


def reconcile(db: Database, inputs: Inputs, part: Partitioning, out: TableRef) -> dict[str, int]:
    """Rows and SA value counts of the written release against its source and the assignment."""
    found = db.records(
        render(
            "release/reconcile.sql",
            source=inputs.table.ref,
            assignment=part.assignment,
            output=out,
            sa=[c.ident for c in inputs.sa],
        )
    )[0]
    rec = {k: int(v) for k, v in found.items()}
    problems = []
    if rec["assigned"] != rec["rows_in"] or rec["distinct_assigned"] != rec["rows_in"]:
        problems.append(
            f"{rec['assigned']} assignments ({rec['distinct_assigned']} rows) for {rec['rows_in']} rows"
        )
    if rec["published"] + rec["deleted"] != rec["rows_in"] or rec["output_rows"] != rec["published"]:
        problems.append(f"published {rec['published']} + deleted {rec['deleted']} != {rec['rows_in']}")
    if rec["sa_mismatches"]:
        problems.append(f"{rec['sa_mismatches']} SA values whose counts do not reconcile")
    if problems:
        raise InternalError("the release does not reconcile with its source: " + "; ".join(problems))
    return rec


def union_stable(model: PrivacyModel) -> PrivacyModel:
    """The model to check on the QI-label partition (groups with equal labels merge in an attacker's view).
    Unique Distinct is not closed under union, its distinct l-diversity core is."""
    if isinstance(model, UniqueDistinct):
        return Distinct(model.ls)
    return model


def brief(r: CheckResult) -> dict[str, Any]:
    return {
        "satisfied": r.satisfied,
        "groups": r.groups,
        "violating_groups": r.violating_groups,
        "violating_rows": r.violating_rows,
        "k": r.k,
        "distinct_l": r.distinct_l,
    }
