"""What a release's verification claims, per partition of the published table: THE rule that decides which
model is verified on which partition (:func:`partition_models`), the record of those verdicts stored in
``ldiv.release.verification`` (:func:`record`), and how every reader shows it (:func:`verdict_lines`).

A published table reveals two partitions of its rows: its classes (equal group id and QI labels; the
finest partition, where the group column is published) and its label classes (equal QI labels, which
an attacker forms by merging the classes that share a label vector). The model the release claims is
the one verified on the finest partition it reveals; on the label classes, which are unions of classes,
the model verified is what the claimed one guarantees on unions (:meth:`PrivacyModel.on_unions`). A
release without a group column reveals the label classes only, and the claimed model must hold there.
A recorded verdict and ``ldiv check`` with the same model and partition therefore never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..privacy.base import PrivacyModel
from ..util.words import model_phrase

CLASSES = "classes"  # by group id and QI labels: the finest partition a table with a group column reveals
LABELS = "labels"  # by QI labels alone
GROUPS = "groups"  # by group id alone: a release that publishes its SA values per group (Decomposition+)


@dataclass(frozen=True)
class PartitionModel:
    """One partition the published table reveals, its key columns and the model verified on it."""

    partition: str  # CLASSES, LABELS or GROUPS
    keys: tuple[str, ...]  # the columns of the published table that name a class of the partition
    model: PrivacyModel


@dataclass(frozen=True)
class PartitionVerdict:
    """The verdict of one partition's model on the written table."""

    holds: bool
    classes: int
    violating_classes: int
    violating_rows: int
    k: int
    distinct_l: int


class Checked(Protocol):
    """What a check of one partition found (:class:`ldiv_db.verify.check.CheckResult`)."""

    satisfied: bool | None
    groups: int
    violating_groups: int
    violating_rows: int
    k: int

    @property
    def distinct_l(self) -> int: ...


def verdict_of(r: Checked) -> PartitionVerdict:
    """A partition's check as the verification records it."""
    return PartitionVerdict(
        bool(r.satisfied), r.groups, r.violating_groups, r.violating_rows, r.k, r.distinct_l
    )


def partition_models(
    model: PrivacyModel, qi: Sequence[str], group_column: str | None
) -> list[PartitionModel]:
    """THE decision, finest partition first: with a published group column, ``model`` on the classes (by
    group id and labels) and ``model.on_unions()`` on the label classes; without one, ``model`` on the
    label classes, the only partition the table reveals."""
    labels = PartitionModel(LABELS, tuple(qi), model)
    if group_column is None:
        return [labels]
    return [
        PartitionModel(CLASSES, (group_column, *qi), model),
        PartitionModel(LABELS, tuple(qi), model.on_unions()),
    ]


def entry(part: PartitionModel, verdict: PartitionVerdict) -> dict[str, Any]:
    """One partition's record: the model (name, parameters, as described) and what was found."""
    return {
        "partition": part.partition,
        "keys": list(part.keys),
        "model": part.model.name,
        "params": part.model.params(),
        "describe": part.model.describe(),
        "holds": verdict.holds,
        "classes": verdict.classes,
        "violating_classes": verdict.violating_classes,
        "violating_rows": verdict.violating_rows,
        "k": verdict.k,
        "distinct_l": verdict.distinct_l,
    }


def record(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The verification's verdict part, finest partition first: ``model`` is the claimed model (the one
    verified on the finest partition), ``partition`` names that partition, ``partitions`` every entry."""
    if not entries:
        return {"model": None, "partition": None, "partitions": []}
    first = entries[0]
    return {"model": first["describe"], "partition": first["partition"], "partitions": list(entries)}


def partitions_of(verification: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The per-partition entries of a recorded verification, finest first (none for a verification
    recorded before partitions were recorded)."""
    if not verification:
        return []
    return [dict(e) for e in verification.get("partitions") or []]


def claimed(verification: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The entry of the finest partition: the model the release claims, where it holds."""
    parts = partitions_of(verification)
    return parts[0] if parts else None


def partition_name(partition: str | None, keys: Sequence[str]) -> str:
    """How a partition is named for people: 'group_id + QI labels' (the classes), 'QI labels'."""
    if partition == CLASSES:
        return f"{keys[0]} + QI labels" if keys else "group id + QI labels"
    if partition == GROUPS:
        return keys[0] if keys else "group id"
    return "QI labels"


def described(e: Mapping[str, Any]) -> str:
    """A recorded entry's model in today's words (:func:`ldiv_db.util.words.model_phrase`), whatever words
    its ``describe`` was recorded in."""
    return model_phrase(e["model"], e.get("params")) if e.get("model") else str(e.get("describe"))


def verdict_lines(verification: Mapping[str, Any] | None) -> list[str]:
    """One line per partition, finest first: 'unique-distinct (l=4) holds by group_id + QI labels
    (7540 classes)' or '... does NOT hold by QI labels: 664 of 5926 classes violate (2,301 rows)'."""
    out = []
    for e in partitions_of(verification):
        where = partition_name(e.get("partition"), list(e.get("keys") or []))
        if e.get("holds"):
            out.append(f"{described(e)} holds by {where} ({e['classes']} classes)")
        else:
            out.append(
                f"{described(e)} does NOT hold by {where}: {e['violating_classes']} of {e['classes']} "
                f"classes violate ({e['violating_rows']} rows)"
            )
    return out


def verdict_brief(verification: Mapping[str, Any] | None) -> str:
    """The models verified, one phrase per partition: 'unique-distinct (l=4) by group_id + QI labels,
    distinct (l=4) by QI labels' (a partition whose model does not hold is marked NOT)."""
    return ", ".join(
        f"{'' if e.get('holds') else 'NOT '}{described(e)} by "
        f"{partition_name(e.get('partition'), list(e.get('keys') or []))}"
        for e in partitions_of(verification)
    )
