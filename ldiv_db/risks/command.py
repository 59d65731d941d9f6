"""``ldiv risk``: the re-identification risk of a table or a release, computed on its classes — for a
release the finest partition it publishes (:func:`ldiv_db.core.classes.class_keys`), never coarser.

SQL counts (``sql/risk/``): the classes' frequency-of-frequencies, the same without each QI, and against a
population table the (data, population) class-size pairs. :mod:`.figures` turns them into the attacker
models' figures, :mod:`.estimators` into population-uniqueness estimates. A read, except for the per-row
table ``rows_out`` asks for: a new table, written in one transaction (``ownership.check_new_table``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core import ownership
from ..core.catalog import Column, Table, output_ref, resolve_table
from ..core.classes import class_keys, describe, published_group_column
from ..core.inputs import as_list, null_counts, refuse_nulls
from ..core.run_flags import RiskFlags, api_flags
from ..db import Database
from ..errors import BadInput
from ..sqlgen.render import Ident, TableRef, render
from . import estimators, figures
from .result import PopulationFacts, RiskResult

# the columns --rows-out adds beside the class keys
ROW_COLUMNS = (
    "class_size",
    "prosecutor_risk",
    "sample_unique",
    "population_size",
    "journalist_risk",
    "above_threshold",
)


@dataclass(frozen=True)
class Target:
    """The table measured: its keys (class_keys), its QI columns and its group column where published."""

    table: Table
    qi: tuple[Column, ...]
    group: Column | None

    @property
    def keys(self) -> list[Ident]:
        return class_keys(self.group.ident if self.group else None, [c.ident for c in self.qi])


def _population_size(population: Any, fraction: Any, rows: int) -> tuple[float | None, str]:
    """N and where it comes from (--population or --sampling-fraction), checked against the data."""
    if population is not None and fraction is not None:
        raise BadInput(
            "both --population and --sampling-fraction are given", "give one: N, or the fraction n/N"
        )
    if population is not None:
        try:
            n_pop = int(str(population).strip())
        except ValueError:
            raise BadInput(
                f"cannot read --population {population!r}", "give the population size, an integer"
            ) from None
        if n_pop < rows:
            raise BadInput(
                f"--population {n_pop} is smaller than the data ({rows} rows)",
                "the population contains the data: give its size (≥ the rows), or --sampling-fraction",
            )
        return float(n_pop), "--population"
    if fraction is not None:
        try:
            f = Fraction(str(fraction).strip())
        except (ValueError, ZeroDivisionError):
            raise BadInput(
                f"cannot read --sampling-fraction {fraction!r}", "give n/N in (0, 1], e.g. 0.05"
            ) from None
        if not 0 < f <= 1:
            raise BadInput(f"--sampling-fraction {fraction} is outside (0, 1]", "give n/N, e.g. 0.05")
        return float(rows / f), "--sampling-fraction"
    return None, "none given"


def recorded_qi(db: Database, name: str) -> list[str]:
    """The QIs of the newest release recorded as written to table ``name`` (none for another table)."""
    try:
        display = output_ref(name).display()
    except BadInput:
        return []
    rows = db.records(render("report/release.sql", {"name": display}))
    qi = json.loads(rows[0]["qi"]) if rows and rows[0]["qi"] is not None else []
    return [str(q) for q in qi]


def _target(db: Database, name: str, qi: str | Sequence[str] | None, null_as_value: bool) -> Target:
    table = resolve_table(db, name)
    names = as_list(qi) or recorded_qi(db, name)
    if not names:
        raise BadInput("no quasi-identifiers given", "name them with --qi a,b,c")
    cols = tuple(table.columns_of(names))
    dups = sorted({c.name for c in cols if [d.name for d in cols].count(c.name) > 1})
    if dups:
        raise BadInput(f"QI column {dups[0]!r} is listed twice", "name each column once")
    group_name = published_group_column(db, table)
    group = table.column(group_name) if group_name else None
    if group is not None and group.name in {c.name for c in cols}:
        raise BadInput(f"{group.name!r} is the release's group column, not a QI", "leave it out of --qi")
    checked = [] if null_as_value else list(cols)
    rows, nulls = null_counts(db, table, checked)
    if rows == 0:
        raise BadInput(f"table {table.name} is empty", "load data first")
    refuse_nulls(table, checked, nulls, rows)
    return Target(table, cols, group)


def frequencies(db: Database, source: TableRef, sets: Sequence[Sequence[Ident]]) -> list[dict[int, int]]:
    """Per key set, the frequency-of-frequencies {class size: classes} (one statement)."""
    out: list[dict[int, int]] = [{} for _ in sets]
    for key_set, size, classes in db.rows(
        render("risk/frequencies.sql", source=source, sets=[list(s) for s in sets])
    ):
        out[int(key_set)][int(size)] = int(classes)
    return out


def _population_table(
    db: Database, name: str, target: Target, rows: int
) -> tuple[Table, list[Ident], dict[tuple[int, int], int], dict[int, int]]:
    """The population table's QI columns (named as the data's), the (data, population) class-size pairs
    and the population's own frequency-of-frequencies; refused where it cannot contain the data."""
    pop = resolve_table(db, name)
    pop_cols = [pop.column(c.name).ident for c in target.qi]
    q = render(
        "risk/journalist.sql",
        source=target.table.ref,
        keys=target.keys,
        population=pop.ref,
        population_keys=pop_cols,
        pairs=list(zip([c.ident for c in target.qi], pop_cols, strict=True)),
    )
    pairs = {(int(f), int(big)): int(c) for f, big, c in db.rows(q)}
    short = sum(c for (f, big), c in pairs.items() if big < f)
    if short:
        raise BadInput(
            f"the population table {pop.name} has fewer rows than the data in {short} of its classes (equal QI "
            "values): it does not contain the data",
            "give a population table that holds every record of the data (same QI columns, same value forms: "
            "for a release its published labels)",
        )
    pop_fof = frequencies(db, pop.ref, [pop_cols])[0]
    return pop, pop_cols, pairs, pop_fof


def risk(
    db: Any,
    table: str | None = None,
    *,
    release: str | None = None,
    qi: str | Sequence[str] | None = None,
    flags: RiskFlags | None = None,
    **kw: Any,
) -> RiskResult:
    """Re-identification risk of ``table`` (or ``release``) under the prosecutor, journalist and marketer
    models, sample uniques, population-uniqueness estimates and each QI's contribution. ``kw``: the
    keywords of :class:`~ldiv_db.core.run_flags.RiskFlags` (``population``, ``sampling_fraction``,
    ``population_table``, ``threshold``, ``rows_out``: also write a per-row risk table of that (new)
    name, ``null_as_value``), or ``flags`` validated."""
    if (table is None) == (release is None):
        raise BadInput("name what to measure", "give --table T or --release R (one of them)")
    f = api_flags(RiskFlags, flags, kw, "ldiv_db.risk")
    database = Database.open(db, mode="write" if f.rows_out else "read")
    try:
        target = _target(database, str(table or release), qi, f.null_as_value)
        return assess(
            database, target, f.threshold, f.population, f.sampling_fraction, f.population_table, f.rows_out
        )
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


def release_risk(db: Database, table: Table, qi: Sequence[Column], group: Column | None) -> RiskResult:
    """The figures of a release on its classes (``group``: its published group column), against no
    population, at the threshold 0.2: the report's risk section."""
    return assess(db, Target(table, tuple(qi), group), Fraction(1, 5))


def assess(
    db: Database,
    target: Target,
    tau: Fraction,
    population: Any = None,
    fraction: Any = None,
    population_table: str | None = None,
    rows_out: str | None = None,
) -> RiskResult:
    """Every figure of ``target`` (a table resolved, its keys by :func:`class_keys`)."""
    rows_target = None
    if rows_out:
        rows_target = ownership.check_new_table(
            db, output_ref(rows_out), "the per-row risk table", "--rows-out"
        )
    group = [target.group.ident] if target.group else []
    sets = [target.keys, *[[*group, *(c.ident for c in target.qi if c != q)] for q in target.qi]]
    fofs = frequencies(db, target.table.ref, sets)
    fof, without = fofs[0], fofs[1:]
    rows = sum(s * c for s, c in fof.items())
    size, source = _population_size(population, fraction, rows)
    pairs: dict[tuple[int, int], int] | None = None
    pop_fof: dict[int, int] | None = None
    pop_ref: Table | None = None
    pop_cols: list[Ident] = []
    if population_table:
        if size is not None:
            raise BadInput(
                "--population-table gives the population size itself",
                "leave out --population / --sampling-fraction with --population-table",
            )
        pop_ref, pop_cols, pairs, pop_fof = _population_table(db, population_table, target, rows)
        size, source = float(sum(s * c for s, c in pop_fof.items())), f"population table {pop_ref.name}"
    estimates = None
    if size is not None and size > rows:
        estimates = estimators.estimate(fof, size)
    facts = PopulationFacts(size, source, estimates, pop_fof)
    if rows_target is not None:
        _write_rows(db, rows_target, target, tau, pop_ref, pop_cols)
    return RiskResult(
        table=target.table.name,
        partition=describe(target.group.name if target.group else None, [c.name for c in target.qi]),
        qi=[c.name for c in target.qi],
        rows=rows,
        threshold=tau,
        fof=fof,
        without=without,
        pairs=pairs,
        population=facts,
        rows_out=None if rows_target is None else rows_target.display(),
        prosecutor=figures.prosecutor(fof, tau),
    )


def _write_rows(
    db: Database,
    target_ref: TableRef,
    target: Target,
    tau: Fraction,
    pop: Table | None,
    pop_cols: list[Ident],
) -> None:
    taken = {k.name.lower() for k in target.keys}
    clash = [c for c in ROW_COLUMNS if c in taken]
    if clash:
        raise BadInput(
            f"the per-row risk table adds a column {clash[0]!r}, which is also a key column of {target.table.name}",
            "rename that column in a copy of the table",
        )
    q = render(
        "risk/rows.sql",
        {"threshold_num": tau.numerator, "threshold_den": tau.denominator},
        target=target_ref,
        source=target.table.ref,
        keys=target.keys,
        names={c: Ident(c) for c in ROW_COLUMNS},
        population=None if pop is None else pop.ref,
        population_keys=pop_cols,
        pairs=[] if pop is None else list(zip([c.ident for c in target.qi], pop_cols, strict=True)),
    )
    with db.transaction():
        db.run(q)
