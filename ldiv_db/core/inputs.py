"""Resolution and validation of the inputs every command shares: the table, its QI / SA / group columns,
and the NULL policy. Errors name the problem and the fix (DESIGN §6)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..db import Database
from ..errors import BadInput
from ..sqlgen.render import quote, render
from ..util.files import read_text
from .catalog import Column, Table, check_distinct_roles, resolve_table
from .stored import stored_categories

# the fix a refused NULL is shown with: a command that takes --null-as-value (check, anonymize, risk,
# metrics, report, compare) offers it; the others cannot treat NULL as a value, and say so instead of
# naming an option they refuse
NULL_HINT = "pass --null-as-value to treat NULL as a value of its own, or filter those rows out first"
NO_NULL_OPTION = (
    "filter those rows out first: this command does not take NULL as a value "
    "(check, anonymize, risk, metrics, report and compare do, with --null-as-value)"
)


class StoredCategories:
    """The sensitivity categories stored for a single SA, read on first use: only the (l,α) models, the
    similarity attack and a comparison's top-down need them, and on Spark the read is a job of its own."""

    def __init__(self, db: Database, table: Table, column: Column) -> None:
        self._read: tuple[Database, Table, Column] | None = (db, table, column)
        self._value: dict[str, int] | None = None

    def get(self) -> dict[str, int] | None:
        if self._read is not None:
            self._value = stored_categories(*self._read)
            self._read = None
        return self._value


@dataclass(frozen=True)
class Inputs:
    table: Table
    qi: tuple[Column, ...]
    sa: tuple[Column, ...]
    group: Column | None
    rows: int
    stored: StoredCategories | None = field(default=None, repr=False, compare=False)
    # the table is a release and ``group`` its published group column: grouped into its classes (the
    # group column with the QI labels, ldiv_db/core/classes.py), not by the group column alone
    published_group: bool = False
    # with --null-as-value, each SA's NULL count (NULL is then a value of its own); empty otherwise
    sa_nulls: tuple[int, ...] = ()

    @property
    def sa_null_values(self) -> bool:
        """Whether a NULL SA cell of this table, or of a release made from it, is a value of its own: read
        with --null-as-value (``sa_nulls`` counted) and some SA holds NULL. Otherwise a release's NULL SA
        cell is a suppressed one (vioSA / allSA publish it so, and refuse an SA holding NULL)."""
        return any(self.sa_nulls)

    @property
    def categories(self) -> dict[str, int] | None:
        """The sensitivity categories stored for the (single) SA; None without them."""
        return self.stored.get() if self.stored is not None else None


def as_list(value: str | Sequence[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


def resolve_inputs(
    db: Database,
    table: str | Table,
    qi: str | Sequence[str] | None,
    sa: str | Sequence[str],
    *,
    group_column: str | None = None,
    extra: Sequence[str] = (),
    null_as_value: bool = False,
    require_qi: bool = True,
    null_sa_unknown: bool = False,
    null_hint: str = NULL_HINT,
) -> Inputs:
    """The table and its roles resolved and validated; a NULL in a role refused with ``null_hint`` (the
    fix this command offers; :data:`NO_NULL_OPTION` where it takes no ``--null-as-value``) unless
    ``null_as_value``."""
    t = table if isinstance(table, Table) else resolve_table(db, table)  # a Table: resolved already
    qi_names, sa_names = as_list(qi), as_list(sa)
    if require_qi and not qi_names and group_column is None:
        raise BadInput("no quasi-identifiers given", "name them with --qi a,b,c")
    if not sa_names:
        raise BadInput("no sensitive attribute given", "name it with --sa s (or several: --sa s1,s2)")
    qi_cols = tuple(t.columns_of(qi_names))
    sa_cols = tuple(t.columns_of(sa_names))
    group = t.column(group_column) if group_column else None
    others = [t.column(e) for e in extra]
    check_distinct_roles(qi_cols, sa_cols, ([group] if group else []) + others)
    for role, cols in (("QI", qi_cols), ("SA", sa_cols)):
        names = [c.name for c in cols]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise BadInput(f"{role} column {dups[0]!r} is listed twice", "name each column once")
    # null_sa_unknown: a NULL SA is a suppressed ("unknown") value, in |G| but no value (SPEC §5.1)
    sa_checked = [] if null_sa_unknown else list(sa_cols)
    checked = [] if null_as_value else [*qi_cols, *sa_checked, *([group] if group else [])]
    # the row count and the NULL counts in one scan (with NULL a value, the SAs' are kept, not refused)
    counted = list(sa_cols) if null_as_value else []
    rows, nulls = null_counts(db, t, [*checked, *counted])
    if rows == 0:
        raise BadInput(f"table {t.name} is empty", "load data first")
    refuse_nulls(t, checked, nulls[: len(checked)], rows, null_hint)
    stored = StoredCategories(db, t, sa_cols[0]) if len(sa_cols) == 1 else None
    return Inputs(t, qi_cols, sa_cols, group, rows, stored, sa_nulls=tuple(nulls[len(checked) :]))


def null_counts(db: Database, table: Table, columns: Sequence[Column]) -> tuple[int, list[int]]:
    """The table's row count and the NULL count of every column in ``columns`` (one statement)."""
    found = db.one(render("catalog/null_counts.sql", source=table.ref, columns=[c.ident for c in columns]))
    return int(found[0]), [int(n) for n in found[1:]]


def check_nulls(
    db: Database, table: Table, columns: Sequence[Column], rows: int, hint: str = NULL_HINT
) -> None:
    if columns:
        refuse_nulls(table, columns, null_counts(db, table, columns)[1], rows, hint)


def refuse_nulls(
    table: Table, columns: Sequence[Column], nulls: Sequence[int], rows: int, hint: str = NULL_HINT
) -> None:
    bad = [(c.name, n) for c, n in zip(columns, nulls, strict=True) if n]
    if bad:
        listing = ", ".join(f"{name!r} has {n} NULL(s)" for name, n in bad)
        raise BadInput(
            f"NULL values in {table.name}: {listing} (of {rows} rows)",
            hint,
        )


# column types a quasi-identifier cannot have: compound or binary values, which cannot be ordered,
# ranged or published as a label (DuckDB's, PostgreSQL's and Spark's spellings)
_COMPOUND_TYPES = frozenset(
    {"ARRAY", "BLOB", "BYTEA", "BINARY", "JSON", "JSONB", "BIT", "BIT VARYING", "VARBIT", "XML"}
)
_FLOAT_TYPES = frozenset({"FLOAT", "DOUBLE", "REAL", "DOUBLE PRECISION", "FLOAT4", "FLOAT8"})


def _tick(name: str) -> str:
    """A Spark SQL identifier (backticks) for advice shown to the user."""
    return "`" + name.replace("`", "``") + "`"


def refuse_unpublishable_columns(db: Database, inputs: Inputs) -> None:
    """A release's QIs must hold plain values: not compound or binary types (their labels were 'NULL' or
    the labels' statement failed), and a number column no NaN or infinity (its ranges broke: a crash in
    TP's arithmetic, a label '0-NaN'). Refused up front, naming the column and the fix.

    Nor may a QI or SA be of a collated string type (Spark's ``STRING COLLATE UTF8_LCASE``): Spark drops the
    collation wherever a value is cast, so one statement held 'flu' and 'FLU' one value and the next two,
    and tp, tp+ and mondrian ended in 'the release does not reconcile with its source' (18,488
    assignments for 400 rows). PostgreSQL's and DuckDB's collations keep through casts and are served."""
    for c in [*inputs.qi, *inputs.sa]:
        t = c.data_type.upper()
        if " COLLATE " in f" {t} " and not t.endswith("UTF8_BINARY"):
            raise BadInput(
                f"column {c.name!r} is of type {c.data_type}; ldiv_db on this engine tells string values "
                "apart by their bytes, and a collation that holds some spellings equal would count them "
                "differently from statement to statement",
                f"anonymize a copy with the column's binary form: CREATE TABLE t2 USING parquet AS SELECT * "  # noqa: S608 - advice shown to the user
                f"EXCEPT ({_tick(c.name)}), CAST({_tick(c.name)} AS STRING) AS {_tick(c.name)} FROM "
                f"{inputs.table.name}",
            )
    for c in inputs.qi:
        t = c.data_type.upper()
        if (
            t in _COMPOUND_TYPES
            or t.endswith("]")
            or t.startswith(("STRUCT", "MAP", "UNION", "LIST", "ARRAY<"))
        ):
            raise BadInput(
                f"QI column {c.name!r} is of type {c.data_type}; a quasi-identifier must hold plain values "
                "(numbers, text, dates, booleans) to be grouped, ranged and published as labels",
                f"publish a text form of it: CREATE TABLE t AS SELECT *, CAST({quote(c.name)} AS VARCHAR) "  # noqa: S608 - advice shown to the user
                f"AS {quote(c.name + '_text')} FROM {inputs.table.name}, and name {c.name}_text as the QI",
            )
    floats = [
        c
        for c in inputs.qi
        if c.data_type.upper() in _FLOAT_TYPES or c.data_type.upper().startswith(("DECIMAL", "NUMERIC"))
    ]
    if not floats:
        return
    found = db.one(
        render("catalog/non_finite_counts.sql", source=inputs.table.ref, columns=[c.ident for c in floats])
    )
    bad = [(c.name, int(n)) for c, n in zip(floats, found, strict=True) if int(n)]
    if bad:
        listing = ", ".join(f"{name!r} has {n} NaN or infinite value(s)" for name, n in bad)
        raise BadInput(
            f"non-finite numbers in the QIs of {inputs.table.name}: {listing} (of {inputs.rows} rows); a "
            "numeric QI is generalized into ranges, where NaN and infinity have no place",
            "filter those rows out first, or publish the column as text (CAST it to VARCHAR in a copy)",
        )


def refuse_folded_sa(db: Database, inputs: Inputs, algorithm: str) -> None:
    """An SA column whose collation holds different spellings one value (PostgreSQL's nondeterministic
    collations, e.g. case-insensitive ICU; DuckDB's COLLATE NOCASE): the algorithms that code SA values in
    Python, by their spelling, would count 'flu' and 'FLU' as two values where the database — and the
    verification — counts one (their releases failed verification). Refused up front, naming the column
    and the fix."""
    if bytes_only(db, inputs.table):
        return
    found = db.one(
        render("catalog/sa_spellings.sql", source=inputs.table.ref, columns=[c.ident for c in inputs.sa])
    )
    for i, c in enumerate(inputs.sa):
        values, spellings = int(found[2 * i]), int(found[2 * i + 1])
        if spellings > values:
            raise BadInput(
                f"SA column {c.name!r} holds {spellings} spellings of {values} values: its collation holds "
                f"some spellings one value (e.g. 'flu' and 'FLU' under a case-insensitive collation), and "
                f"{algorithm} tells SA values apart by their spelling",
                f"give {c.name} one spelling per value in a copy of the table (e.g. lower-cased, with a "
                "deterministic collation), or use mondrian, tp, tp+, hilbert or bsgi, which count values "
                "as the collation does",
            )


def folds_spellings(db: Database, table: Table, columns: Sequence[Column]) -> bool:
    """Whether any of the columns holds two spellings its collation holds one value (DuckDB's COLLATE
    NOCASE, PostgreSQL's nondeterministic collations). There a value read through a DISTINCT or a GROUP BY
    stands for its spellings by whichever one the engine met first, and rows that differ only in spelling
    hash alike, so what follows from the order rows are read in differs: TP and TP+ then read the seeded
    copy rather than the source (commands/anonymize.py: _run), and the suppression labels are taken over
    each group's own rows (sql/_macros/release_write.sql, folded). Counted on the data (a collation the
    catalog does not show, or one that folds nothing in this table, both answer right) unless the catalog
    proves there is no collation to fold them (:func:`bytes_only`); only character columns are counted."""
    return any(folded_columns(db, table, columns))


def folded_columns(db: Database, table: Table, columns: Sequence[Column]) -> list[bool]:
    """Per column, whether it holds two spellings its collation holds one value
    (:func:`folds_spellings`), counted in one statement; a column that is not text folds nothing."""
    texts = [c.ident for c in columns if c.is_text]
    if not texts or bytes_only(db, table):
        return [False] * len(columns)
    found = db.one(render("catalog/sa_spellings.sql", source=table.ref, columns=texts))
    folds = iter(int(found[2 * k + 1]) > int(found[2 * k]) for k in range(len(texts)))
    return [next(folds) if c.is_text else False for c in columns]


def bytes_only(db: Database, table: Table) -> bool:
    """Whether the engine's catalog proves that every text column of ``table`` compares by its bytes
    (catalog/bytes_only.sql, where :attr:`Database.collations_in_catalog`): then none folds spellings,
    and a few milliseconds of catalog spare a count of distinct values per column over every row."""
    if not db.collations_in_catalog:
        return False
    ref = table.ref
    key = {"catalog": ref.catalog, "schema": ref.schema, "name": ref.name}
    return bool(db.scalar(render("catalog/bytes_only.sql", key)))


def refuse_nulls_in_hierarchies(db: Database, inputs: Inputs, hierarchy_ids: Mapping[str, int]) -> None:
    """With --null-as-value, a QI generalized through its stored hierarchy must hold no NULL: a hierarchy
    has a node for every value but none for NULL. Refused up front, naming the columns and the fix."""
    cols = [c for c in inputs.qi if c.name in hierarchy_ids]
    if not cols:
        return
    bad = [(c.name, n) for c, n in zip(cols, null_counts(db, inputs.table, cols)[1], strict=True) if n]
    if bad:
        listing = ", ".join(f"{name!r} has {n} NULL(s)" for name, n in bad)
        name = bad[0][0]
        raise BadInput(
            f"{listing} in {inputs.table.name}, and a hierarchy has no node for NULL, so --null-as-value "
            "cannot generalize it",
            f"give NULL a value of its own in a copy of the table (CREATE TABLE t2 AS SELECT * REPLACE "  # noqa: S608
            f"(coalesce({quote(name)}, 'unknown') AS {quote(name)}) FROM {inputs.table.name}), add 'unknown' as a "
            "leaf of the hierarchy file and anonymize t2; or use tp, tp+, hilbert or topdown, which place NULL "
            "themselves",
        )


def parse_thresholds(spec: str | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """``--thresholds`` as a file (CSV ``value;theta``) or inline ``v1=0.3,v2=1/4``."""
    if spec is None or isinstance(spec, Mapping):
        return dict(spec) if spec is not None else None
    p = Path(spec)
    out: dict[str, Any] = {}
    if p.is_file():
        text = read_text(p, "thresholds file", "a CSV file of value;theta lines")
        for lineno, row in enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=";"), 1):
            if not row:
                continue
            if len(row) != 2:
                raise BadInput(f"{p}:{lineno}: expected 'value;theta'", "one value per line: Flu;0.5")
            if row[0] in out:
                raise BadInput(f"{p}:{lineno}: value {row[0]!r} is listed twice", "give each value once")
            out[row[0]] = row[1].strip()
        return out
    if p.exists():
        raise BadInput(f"thresholds file {p} is not a file", "give a CSV file of value;theta lines")
    for part in spec.split(","):
        if "=" not in part:
            raise BadInput(
                f"cannot read threshold {part!r}", "use a file or value=theta pairs: Flu=0.5,HIV=1/4"
            )
        k, v = part.rsplit("=", 1)
        if k.strip() in out:
            raise BadInput(f"--thresholds names {k.strip()!r} twice", "give each value once")
        out[k.strip()] = v.strip()
    return out
