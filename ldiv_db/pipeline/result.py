"""What a published release reports (``ldiv anonymize --json``, ``ldiv release append --json``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from ..util.frame_convert import FrameResult
from ..util.lazy import library
from ..util.words import metrics_line, model_phrase, number, percent, show
from ..verify.verdicts import partitions_of, verdict_lines

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")


@dataclass
class AnonymizeResult(FrameResult):
    run_id: int
    release_id: int
    algorithm: str
    model: str
    model_params: dict[str, Any]
    l: Any
    rows_in: int
    rows_published: int
    rows_with_suppressed_cells: int  # published rows with a '*' or an unknown SA (ldiv_db/util/words.py)
    rows_deleted: int  # rows not published (suppression deleted them)
    classes: int  # the classes of ldiv_db.core.classes (the finest partition the published table reveals)
    seconds: float
    queries: int
    output: str
    verified: bool
    metrics: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    verification: dict[str, Any] = field(default_factory=dict)
    # a new release is a draft: how it composes with the published releases of its source
    # (pipeline/publication.py draft_composition; None: nothing of its source is published)
    composition: dict[str, Any] | None = None
    # the published table's rows, read on demand (the API sets it: ldiv_db/commands/frames.py)
    release_rows: Callable[[], pd.DataFrame] | None = field(default=None, repr=False, compare=False)

    def to_pandas(self) -> pd.DataFrame:
        """The published table (``to_polars()``, ``to_arrow()`` likewise)."""
        if self.release_rows is None:
            raise BadInput(f"the release {self.output} was not written through the API", "read the table")
        return self.release_rows()

    @property
    def groups(self) -> int:
        """The class count under its former name (Python API compatibility)."""
        return self.classes

    @property
    def k(self) -> int | None:
        """The smallest class, as the metrics measured it on the written table."""
        k = self.metrics.get("k")
        return None if k is None else int(k)

    @property
    def cells_suppressed(self) -> int:
        """Published cells whose value is withheld: QI cells published as ``*``, SA cells as unknown."""
        return int(self.metrics.get("cells_suppressed") or 0)

    @property
    def rows_waiting(self) -> int:
        """Rows a stream keeps back for a later release (Decomposition+); 0 elsewhere."""
        return int(self.metrics.get("rows_waiting") or 0)

    def _smallest(self) -> int | None:
        """k, or the smallest group of a release whose classes are its groups (Decomposition+)."""
        return self.k if self.k is not None else self.details.get("min_group_size")

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "release_id": self.release_id,
            "algorithm": self.algorithm,
            "model": self.model,
            "model_params": self.model_params,
            "l": self.l,
            "rows_in": self.rows_in,
            "rows_published": self.rows_published,
            "rows_deleted": self.rows_deleted,
            "rows_waiting": self.rows_waiting,
            "rows_with_suppressed_cells": self.rows_with_suppressed_cells,
            "cells_suppressed": self.cells_suppressed,
            "classes": self.classes,
            "k": self.k,
            "risk": self.metrics.get("risk"),
            "seconds": round(self.seconds, 4),
            "queries": self.queries,
            "output": self.output,
            "verified": self.verified,
            # per partition the published table reveals, finest first: the model verified there and its verdict
            "verification": partitions_of(self.verification),
            "metrics": self.metrics,
            "details": self.details,
            "publication": "draft",
            "composition": self.composition,
        }

    def render_text(self, verbose: bool = False) -> str:
        """A short summary; ``verbose`` adds the algorithm's details, one ``key: value`` line each."""
        m = self.metrics
        lines = [
            f"release      {self.output} (release {self.release_id}, run {self.run_id})",
            f"algorithm    {self.algorithm}",
            f"model        {model_phrase(self.model, self.model_params)}",
            f"rows         {_rows(self)}",
            f"classes      {number(self.classes)} (k {show('k', self._smallest())}, average size "
            f"{number(m.get('avg_class_size', m.get('avg_group_size')))}){_risk(m)}",
            f"metrics      {metrics_line(m, _SHOWN_METRICS if 'ncp' in m else _STREAM_METRICS)}",
            f"verified     {'yes' if self.verified else 'NO'}",
            *(f"  {line}" for line in verdict_lines(self.verification)),
            f"time         {self.seconds:.2f} s, {self.queries} queries",
        ]
        if verbose:
            lines.append("details")
            lines += [f"  {k}: {v}" for k, v in flat_items(self.details)]
        # a stream's release is published by the stream's name, not by its tables' names
        lines.append(_publication_line(str(self.details.get("stream") or self.output), self.composition))
        return "\n".join(lines)


_SHOWN_METRICS = ("ncp", "il", "lm", "dm", "cavg", "kl")
_STREAM_METRICS = ("noise",)


def _rows(r: AnonymizeResult) -> str:
    """The row counts in the one vocabulary of :mod:`ldiv_db.util.words`."""
    text = f"{number(r.rows_in)} in, {number(r.rows_published)} published, {number(r.rows_deleted)} deleted"
    if r.rows_waiting:
        text += f", {number(r.rows_waiting)} waiting"
    return (
        f"{text}; {number(r.cells_suppressed)} cells suppressed in "
        f"{number(r.rows_with_suppressed_cells)} rows"
    )


def flat_items(values: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """A details mapping as ``key: value`` pairs for people: nested mappings flattened to ``a.b``,
    lists joined, private keys (``_x``) and missing values left out."""
    out: list[tuple[str, str]] = []
    for k, v in values.items():
        if k.startswith("_") or v is None:
            continue
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out += flat_items(v, key + ".")
        elif isinstance(v, (list, tuple)):
            out.append((key, ", ".join(_item(x) for x in v)))
        else:
            out.append((key, _item(v)))
    return out


def _item(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_item(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {_item(x)}" for k, x in v.items()) + "}"
    return number(v)


def _publication_line(output: str, comp: dict[str, Any] | None) -> str:
    """The draft's state, and how it would compose with the published releases of its source."""
    head = f"state        draft: publish it with `ldiv release publish DB --release {output}`"
    if comp is None:
        return head + " (nothing of its source is published yet)"
    names = ", ".join(comp["with"])
    if not comp.get("checked"):
        return f"{head}\n  beside the published {names}: not checked ({comp.get('reason')})"
    verdict = "composes safely" if comp.get("ok") else "WOULD BE REFUSED"
    return f"{head}\n  beside the published {names}: {verdict} ({comp.get('summary')})"


def _risk(m: dict[str, Any]) -> str:
    """The classes' re-identification risk, as the report shows it."""
    r = m.get("risk")
    if not r:
        return ""
    return (
        f"\nrisk         highest {percent(r['highest'])}, average {percent(r['average'])}, rows above "
        f"5/10/20 %: {percent(r['above_5pct'])} / {percent(r['above_10pct'])} / {percent(r['above_20pct'])}"
    )
