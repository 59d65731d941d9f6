"""A source given as a DuckDB table function (``--from "read_parquet('data/*.parquet')"``): parsed with
sqlglot and accepted only as ONE call of a file-reading table function whose arguments are literals
(a path, a list of paths, ``name = value`` options). Anything else — a subquery, a second statement, a
column or function inside the arguments — is refused, so the text that reaches SQL (the ``table_function``
filter of :mod:`ldiv_db.sqlgen.render`) is sqlglot's own rendering of a checked call, never the user's text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import BadInput
from ..util.lazy import library

if TYPE_CHECKING:
    import sqlglot
    import sqlglot.expressions as exp
else:  # parsed only for --from (decision 0023, Round 7)
    sqlglot = library("sqlglot")
    exp = library("sqlglot.expressions")

READERS = (
    "read_parquet",
    "parquet_scan",
    "read_csv",
    "read_csv_auto",
    "read_json",
    "read_json_auto",
    "read_ndjson",
    "read_ndjson_auto",
    "delta_scan",
    "iceberg_scan",
)
_HINT = "give one call such as read_parquet('data/*.parquet') or read_csv('a.csv', delim = ';')"


@dataclass(frozen=True)
class TableFunction:
    """A checked table-function call; ``sql`` is its DuckDB text as sqlglot writes it."""

    name: str
    sql: str

    @classmethod
    def parse(cls, text: str) -> TableFunction:
        try:
            parsed = [p for p in sqlglot.parse(text, read="duckdb") if p is not None]
        except sqlglot.errors.ParseError as exc:
            raise BadInput(f"cannot read --from {text!r}: {str(exc).splitlines()[0]}", _HINT) from None
        if len(parsed) != 1 or not isinstance(parsed[0], exp.Func):
            raise BadInput(f"--from {text!r} is not one table function call", _HINT)
        call = parsed[0]
        name = (call.name if isinstance(call, exp.Anonymous) else call.sql_name()).lower()
        if name not in READERS:
            raise BadInput(
                f"--from names {name}, not a table function that reads files",
                f"use one of {', '.join(READERS)}",
            )
        literals = (exp.Literal, exp.Boolean, exp.Null, exp.Array, exp.Neg)
        options = (exp.EQ, exp.PropertyEQ, exp.Kwarg)
        for node in call.walk():
            if node is call or isinstance(node, (*literals, *options, exp.Identifier)):
                continue
            if isinstance(node, exp.Column) and isinstance(node.parent, options) and node.arg_key == "this":
                continue  # an option's name
            raise BadInput(
                f"--from {text!r}: its arguments must be literals (found {node.sql('duckdb')})", _HINT
            )
        return cls(name, call.sql(dialect="duckdb"))
