"""A one-table release: the :class:`~ldiv_db.algorithms.base.Partitioning` an algorithm returns, as the
release the pipeline publishes. OUT holds the QIs as published labels, the SAs as published, the kept
columns and the group column (unless written without it, ``--no-group-column``: its classes are then its
label vectors, which must hold the model themselves); rows deleted by suppression are left out. The
written table is reconciled, verified (on every partition it reveals, :mod:`ldiv_db.verify.verdicts`)
and measured by :func:`ldiv_db.pipeline.verify.check_written`; the algorithm's guarantees
(:mod:`ldiv_db.verify.guarantees`) are checked on the recorded release."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..algorithms.base import (
    Header,
    Partitioning,
    Reconciled,
    Release,
    Verdict,
    group_column_name,
    lca_hierarchy_ids,
    lca_kinds,
)
from ..core import ownership
from ..core.catalog import Column
from ..core.inputs import Inputs, folds_spellings
from ..db import Database
from ..errors import BadInput, InternalError
from ..privacy import PrivacyModel
from ..privacy.base import sql_text
from ..sqlgen.render import Ident, TableRef, render
from ..verify.check import CheckResult
from ..verify.guarantees import OnePerGroup, Written, verify_all
from .verify import Checked, Publishing, WrittenRelease, check_written

ASSIGNMENT = ("rid", "gid", "deleted", "sa_suppressed")  # the columns of an algorithm's assignment


class OneTable(Release):
    """The release of a :class:`Partitioning` to the table ``out``."""

    def __init__(
        self,
        db: Database,
        inputs: Inputs,
        part: Partitioning,
        privacy: PrivacyModel,
        algo: str,
        how: Publishing,
    ) -> None:
        self.inputs, self.part, self.privacy, self.how = inputs, part, privacy, how
        self.verify_model = (part.verify_model or privacy).fixed(lambda: _value_counts(db, inputs))
        self.out = how.out
        self.ids_published = part.ids_published
        self.tables = (how.out,)
        self.target = how.out  # the table written and checked: OUT, or its staging table
        self.group_column = (
            group_column_name(inputs, how.keep_columns) if not how.flags.no_group_column else None
        )
        if self.group_column is None:
            _refuse_group_guarantees(part, algo)
        counts = db.records(render("release/published_count.sql", assignment=part.assignment))[0]
        self.empty = (int(counts["published"]), int(counts["assigned"]))
        lo, hi = counts["rid_lo"], counts["rid_hi"]  # kept by the renumbering (pipeline/opaque.py)
        self.rid_range = None if lo is None or hi is None else (int(lo), int(hi))
        self.header = Header(
            name=how.out.display(),
            source=inputs.table.name,
            algorithm=algo,
            model=self.verify_model.name,
            model_params=self.verify_model.params(),
            l=list(self.verify_model.ls) if self.verify_model.ls else None,
            qi=[c.name for c in inputs.qi],
            sa=[c.name for c in inputs.sa],
            output=how.out.display(),
        )
        self.labels: tuple[TableRef | None, str] | None = None
        self.groups: int | None = part.groups  # where the algorithm counts them (else from the labels)
        self.checked: Checked | None = None
        self.rows: tuple[int, int] = (0, 0)
        self._fingerprints: dict[TableRef, tuple[int, str]] = {}

    def group_tables(self) -> list[tuple[TableRef, Sequence[str]]]:
        part = self.part
        tables: list[tuple[TableRef, Sequence[str]]] = [(part.assignment, ASSIGNMENT)]
        if part.group_labels is not None:
            labels = ["gid", *(f"q{i}" for i in range(1, len(self.inputs.qi) + 1))]
            tables.append((part.group_labels, labels))
        if part.group_stars is not None:
            stars = ["gid", *(f"s{i}" for i in range(1, len(self.inputs.qi) + 1))]
            tables.append((part.group_stars, stars))
        return tables

    def regrouped(self, tables: Mapping[TableRef, TableRef]) -> None:
        part = self.part
        labels, stars = part.group_labels, part.group_stars
        self.part = dataclasses.replace(
            part,
            assignment=tables[part.assignment],
            group_labels=None if labels is None else tables[labels],
            group_stars=None if stars is None else tables[stars],
        )

    def prepare(self, db: Database) -> None:
        self.labels = _labels(db, self.inputs, self.part, self.how.hids)
        labels, by = self.labels
        if self.groups is None and labels is not None and by == "gid":  # one label row per group
            self.groups = int(db.scalar(render("catalog/row_count.sql", source=labels)))

    def write(self, db: Database) -> None:
        assert self.labels is not None
        keep = [self.inputs.table.column(k) for k in self.how.keep_columns]
        labels, by = self.labels
        common: dict[str, Any] = {
            "output": self.target,
            "assignment": self.part.assignment,
            "source": self.inputs.table.ref,
            "qi": [c.ident for c in self.inputs.qi],
            "sa": [c.ident for c in self.inputs.sa],
            "keep": [c.ident for c in keep],
            "group_column": None if self.group_column is None else Ident(self.group_column),
        }
        if labels is None:  # suppression: each group labelled as it is written
            as_text = [not c.is_numeric for c in self.inputs.qi]
            # where a column folds spellings, each group's own (core/inputs.py: folds_spellings)
            folded = self.how.folded
            if folded is None:
                folded = folds_spellings(db, self.inputs.table, [*self.inputs.qi, *self.inputs.sa, *keep])
            stars = self.part.group_stars
            if folded or not all(_one_spelling(c) for c in self.inputs.qi):
                stars = None  # a group's agreeing rows may print their value differently: the labels its own
            q = render("release/write_suppress.sql", as_text=as_text, folded=folded, stars=stars, **common)
            db.run(q)
        else:
            db.run(render("release/write.sql", labels=labels, labels_by=by, **common))

    def reconcile(self, db: Database) -> Reconciled:
        """Reconciles, verifies and measures in one call (a reconciliation problem raises there)."""
        how = self.how
        self._fingerprints.clear()

        def fingerprint() -> None:  # the published table as written (not a staging table renamed later)
            if self.target == self.out:
                self._fingerprints[self.out] = ownership.fingerprint(db, self.out)

        written = WrittenRelease(
            self.inputs, self.part, self.target, self.group_column, self.verify_model, self.privacy
        )
        self.checked = check_written(
            db,
            written,
            how,
            meanwhile=fingerprint,
            expected=self.empty,
            groups=self.groups,
            rid_range=self.rid_range,
        )
        rec = self.checked.reconciliation
        self.rows = (int(rec["rows_in"]), int(rec["output_rows"]))
        return Reconciled(int(rec["rows_in"]), int(rec["published"]), int(rec["deleted"]), dict(rec), [])

    def verify(self, db: Database, rec: Reconciled) -> Verdict:
        checked = self.checked
        assert checked is not None
        metrics = checked.metrics
        deleted = rec.counts["deleted"]
        if self.group_column is None and not checked.verified:
            _refuse_label_classes(self.header.algorithm, self.verify_model, checked.results[0][1])
        return Verdict(
            verified=checked.verified,
            verification=checked.verification,
            metrics=metrics,
            # the group column written (None: none), which ldiv check and the report group by
            details={**self.part.details, "group_column": self.group_column},
            groups=checked.classes,
            rows_with_suppressed_cells=int(metrics.get("rows_with_suppressed_cells") or 0),
            rows_deleted=deleted,
            violation=checked.violation(),
        )

    def fingerprints(self) -> Mapping[TableRef, tuple[int, str]]:
        return self._fingerprints

    def link(self, db: Database, release_id: int) -> None:
        db.run(
            render("release/release_rows.sql", {"release_id": release_id}, assignment=self.part.assignment)
        )

    def stage(self, tables: Mapping[TableRef, TableRef]) -> None:
        self.target = tables.get(self.out, self.out)

    def promises(self, db: Database, release_id: int, verdict: Verdict) -> list[str]:
        src = self.inputs.table.ref
        group = Ident(self.group_column or "group_id")  # without one no guarantee reads it (see __init__)
        written = Written(db, release_id, src, self.target, group, *self.rows)
        broken = verify_all(self.part.guarantees, written, verdict.verification, verdict.verified)
        return [f"{o.guarantee}: {o.found}" for o in broken]


# types whose equal values print alike (CAST to text): a group whose rows agree on such a QI shows one label
# when each row is labelled from its own value. Not floats (-0.0 and 0.0), a NUMERIC of no fixed scale
# (PostgreSQL: 1.5 and 1.50), intervals ('1 day', '24 hours') and whatever else is not named here
_FIXED_SCALE = re.compile(r"^(DECIMAL|NUMERIC)\(\s*\d+\s*,\s*\d+\s*\)$")


def _one_spelling(column: Column) -> bool:
    t = column.data_type.strip().upper()
    return (
        column.is_integer or column.is_text or t in ("DATE", "BOOLEAN", "BOOL") or bool(_FIXED_SCALE.match(t))
    )


def _labels(
    db: Database, inputs: Inputs, part: Partitioning, hids: Mapping[str, int]
) -> tuple[TableRef | None, str]:
    """The labels table and its key ('rid' or 'gid'); for suppression none ('suppress'):
    release/write_suppress.sql labels each group as it writes it."""
    if part.recoding == "labels":
        if part.labels is not None:
            return part.labels, "rid"
        if part.group_labels is not None:  # one label vector per group (top-down's nodes)
            return part.group_labels, "gid"
        raise InternalError("the algorithm chose 'labels' recoding without a labels table")
    if part.recoding == "suppress":
        return None, "suppress"
    target = db.work_table("release_labels")
    if part.recoding == "lca" and part.group_labels is not None:
        return (
            part.group_labels,
            "gid",
        )  # computed by the algorithm from its arrays (algorithms/shared/lca.py)
    if part.recoding == "lca":
        kinds = lca_kinds(inputs.qi, hids)
        db.run(
            render(
                "release/labels_lca.sql",
                {"hids": lca_hierarchy_ids(inputs.qi, hids)},
                target=target,
                assignment=part.assignment,
                source=inputs.table.ref,
                qi=[c.ident for c in inputs.qi],
                kinds=kinds,
            )
        )
        return target, "gid"
    raise InternalError(f"unknown recoding {part.recoding!r}")


def _value_counts(db: Database, inputs: Inputs) -> dict[int, list[tuple[str | None, int]]]:
    """Per SA (1, 2, ...) of the source: its values as the statistics spell them, with their counts."""
    out: dict[int, list[tuple[str | None, int]]] = {}
    for s, col in enumerate(inputs.sa, 1):
        rows = db.rows(render("catalog/sa_counts.sql", source=inputs.table.ref, sa=col.ident))
        out[s] = [(sql_text(v), int(n)) for v, n in rows]
    return out


def _refuse_group_guarantees(part: Partitioning, algo: str) -> None:
    """A guarantee checked per published group (BSGI's one row per individual) cannot be checked on a
    release written without its group column: refused before anything is written."""

    for g in part.guarantees:
        if isinstance(g, OnePerGroup):
            raise BadInput(
                f"{algo} promises {g.description}, which is checked per published group, and "
                "--no-group-column publishes none",
                "keep the group column (leave out --no-group-column), or run without --individual-column",
            )


def _refuse_label_classes(algo: str, model: PrivacyModel, by_labels: CheckResult | None) -> None:
    """Without its group column a release's classes are its label vectors; where the algorithm's groups
    share labels, the merged classes must hold the model themselves. Refused (the transaction rolls back)
    naming the model, the violating label classes and what to do."""
    n = 0 if by_labels is None else by_labels.violating_groups
    rows = 0 if by_labels is None else by_labels.violating_rows
    worst = [] if by_labels is None else by_labels.worst[:3]
    named = "; ".join(
        "[" + ", ".join(f"{k}={v}" for k, v in w["key"].items()) + f"] {w['size']} rows" for w in worst
    )
    raise BadInput(
        f"without the group column the published table's classes are its QI label vectors, and {algo}'s "
        f"partition does not satisfy {model.describe()} on them: {n} label classes ({rows} rows) violate it"
        + (f", e.g. {named}" if named else "")
        + "; nothing was published",
        "keep the group column (leave out --no-group-column), or use an algorithm whose label classes are "
        "its groups (a global recoding: full-domain, lplus, optimal), or a model that holds on merged "
        "classes (e.g. --model distinct)",
    )
