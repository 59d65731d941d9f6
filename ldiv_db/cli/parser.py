"""The ``ldiv`` command line's parser: one sub-parser per command; the model flags and every
algorithm's options are generated from their declarations (:mod:`ldiv_db.core.options`).

Those declarations live beside the models and the algorithms, whose imports are most of a command's
start-up: a command's parser adds them when that command is chosen (:class:`CommandParser`), so ``ldiv
--help`` and ``ldiv --version`` import neither (docs/decisions/0023-start-up.md)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from ..core.run_flags import (
    AnonymizeFlags,
    CheckFlags,
    CompareFlags,
    MetricsFlags,
    RiskFlags,
    add_arguments,
)
from ..version import __version__

EPILOG = """examples:
  ldiv load my.duckdb adult.csv --table adult --sep ';'
  ldiv hierarchy import my.duckdb --table adult --column age adult_hierarchy_age.csv
  ldiv hierarchy import-categories my.duckdb --table adult --column health categories.csv
  ldiv check my.duckdb --table adult --qi age,sex,race --sa occupation --model distinct --l 3
  ldiv suggest-l my.duckdb --table adult --sa occupation
  ldiv risk my.duckdb --table adult --qi age,sex,race --sampling-fraction 0.01
  ldiv anonymize my.duckdb --table adult --qi age,sex --sa occupation --algorithm full-domain \\
       --levels age=2,sex=0 --l 2 --output adult_release
  ldiv report my.duckdb --release adult_release --html report.html
  ldiv compare my.duckdb --table adult --qi age,sex,race --sa occupation --l 4 --html compare.html
  ldiv compose my.duckdb --release adult_cmp_bsgi --release adult_cmp_mondrian
  ldiv check postgresql://analyst@db.example:5432/hospital --table ward.patients --qi age,sex \\
       --sa diagnosis --model distinct --l 3        # the password: PGPASSWORD or ~/.pgpass
  ldiv check 'spark://local[2]?warehouse=/data/wh' --table lake.people --qi age,sex --sa job --l 3

DB is where the data lives: a DuckDB file, a PostgreSQL URL or a Spark session (docs/how-to/postgresql.md,
  docs/concepts/engines.md).
"""


DB_HELP = (
    "a DuckDB file (a write command creates it if missing), a PostgreSQL URL "
    "(postgresql://user@host:port/dbname) or a Spark session (spark://local[2]?warehouse=PATH, spark://HOST:PORT)"
)


FROM_HELP = (
    "DuckDB: read the rows with a table function, e.g. \"read_parquet('data/*.parquet')\" (kept in a table "
    "first, its row ids the rows' order in the read)"
)


class CommandParser(argparse.ArgumentParser):
    """A command's parser whose costly arguments (:meth:`later`) are added when it parses or when
    :func:`build_parser` is asked for the whole tree, not when the parser of all commands is built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # a flag is taken only as spelled: argparse's prefixes read `ldiv risk --sa x` as
        # --sampling-fraction x, and a typo as whichever flag it begins
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._later: list[Callable[[argparse.ArgumentParser], None]] = []

    def later(self, add: Callable[[argparse.ArgumentParser], None]) -> None:
        self._later.append(add)

    def complete(self) -> None:
        while self._later:
            self._later.pop(0)(self)
            _fill_help(self)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.complete()
        return super().parse_known_args(args, namespace)


def build_parser(*, whole: bool = False) -> argparse.ArgumentParser:
    """The parser of every command; each command's model and algorithm options are added once it is
    chosen, or at once with ``whole`` (a reader of the whole tree: the reference, the tests)."""
    p = argparse.ArgumentParser(
        prog="ldiv",
        description="In-database l-diversity anonymization on DuckDB, PostgreSQL and Spark.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"ldiv {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=CommandParser)
    _add_data_commands(sub)
    _add_inspect_commands(sub)
    _add_anonymize_command(sub)
    _add_other_commands(sub)
    _add_report_commands(sub)
    _add_admin_commands(sub)
    _fill_help(p)
    if whole:
        _complete(p)
    return p


def _complete(parser: argparse.ArgumentParser) -> None:
    if isinstance(parser, CommandParser):
        parser.complete()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _complete(sub)


# The meaning of the arguments many commands share, for those declared without a help of their own
# (--help and the generated reference, docs/gen_reference.py, show it)
COMMON_HELP = {
    "json": "print one JSON object on stdout instead of text",
    "table": "the table: NAME or SCHEMA.NAME (an attached file's: ALIAS.SCHEMA.NAME)",
    "qi": "quasi-identifier columns, comma-separated: a,b,c",
    "sa": "sensitive attribute column (several, comma-separated, where the command allows)",
    "release": "a release table (the --output of its anonymize)",
    "source": "the source table of the release",
    "quiet": "no progress on stderr",
    "column": "the column",
    "sep": "the file's field separator",
    "replace": "replace an existing table of this name (refused unless ldiv_db may replace it)",
    "null_as_value": "treat NULL as a value of its own",
    "algorithm": "the algorithm (listed above, with their options below)",
    "file": "the file to read",
    "job": "the TOML job file (paths in it are relative to it)",
}


def _fill_help(parser: argparse.ArgumentParser) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _fill_help(sub)
        elif action.help is None and action.dest in COMMON_HELP:
            action.help = COMMON_HELP[action.dest]


def _add_data_commands(sub: Any) -> None:
    """Load, hierarchy (import, build, show, import-categories)."""
    s = sub.add_parser(
        "load", help="load a CSV or Parquet file, a glob of them or a Parquet dataset folder into a table"
    )
    _add_db(s)
    s.add_argument("file")
    s.add_argument("--table", required=True)
    s.add_argument("--sep", help="CSV separator (detected when omitted)")
    s.add_argument("--replace", action="store_true")
    s.add_argument("--json", action="store_true")
    h = sub.add_parser("hierarchy", help="import, build or show generalization hierarchies")
    hs = h.add_subparsers(dest="hcommand", required=True, metavar="ACTION")
    hi = hs.add_parser("import", help="import an ARX-format hierarchy CSV (';', no header, leaf -> root)")
    _add_db(hi)
    hi.add_argument("--table", required=True)
    hi.add_argument("--column", required=True)
    hi.add_argument("file")
    hi.add_argument("--sep", default=";")
    hb = hs.add_parser("build", help="build an interval hierarchy for a numeric column")
    _add_db(hb)
    hb.add_argument("--table", required=True)
    hb.add_argument("--column", required=True)
    hb.add_argument("--intervals", required=True, help="widths, each a multiple of the previous: 5,10,20,40")
    hw = hs.add_parser("show", help="show stored hierarchies and sensitivity categories")
    _add_db(hw)
    hw.add_argument("--table", required=True)
    hw.add_argument("--column")
    hw.add_argument(
        "--category-weights",
        dest="category_weights",
        help="show category weights under: uniform (default), sensitivity, or 1=0,2=1/3,...",
    )
    hw.add_argument("--beta", help="beta of the sensitivity weights (number in [1, 16]; default 2)")
    hc = hs.add_parser(
        "import-categories",
        help="store the sensitivity categories of an SA ((l,alpha) models, similarity attack)",
        description="FILE: CSV value;category, one value per line, category an integer rank "
        "1..K (1 = most sensitive). Every value of the column needs a category; the stored categories "
        "replace earlier ones and make --categories optional for this table and its releases.",
    )
    _add_db(hc)
    hc.add_argument("--table", required=True)
    hc.add_argument("--column", required=True, help="the sensitive attribute")
    hc.add_argument("file")


def _add_inspect_commands(sub: Any) -> None:
    """Check, metrics, compose, suggest-l."""
    c = sub.add_parser("check", help="privacy statistics of any table, and a model's verdict")
    _add_db(c)
    c.add_argument("--table", help="the table to check (or --from)")
    c.add_argument("--from", dest="from_", metavar="CALL", help=FROM_HELP)
    c.add_argument("--qi", help="quasi-identifier columns a,b,c")
    c.add_argument("--sa", required=True, help="sensitive attribute(s)")
    add_arguments(c, CheckFlags)
    c.add_argument("--json", action="store_true")
    _add_model_args(c)
    m = sub.add_parser("metrics", help="utility metrics of a release against its source")
    _add_db(m)
    m.add_argument("--source", required=True)
    m.add_argument("--release", required=True)
    m.add_argument("--qi", required=True)
    m.add_argument("--sa", required=True)
    add_arguments(m, MetricsFlags)
    m.add_argument("--json", action="store_true")
    cm = sub.add_parser(
        "compose",
        help="what several releases of one source reveal together: rows left below l",
        description="An attacker who knows a person's QI values takes, in each release, the SA values of "
        "the classes whose labels cover them, and intersects the releases. Reports the source rows left "
        "fewer than each release's l values (per release and per pair) and the worst rows. Exit 0 when no "
        "row is below l, 1 when some is, 2 for bad input.",
    )
    _add_db(cm)
    cm.add_argument("--release", action="append", required=True, help="a release table (repeat: A, B, ...)")
    cm.add_argument("--worst", default="5", help="how many of the worst rows to list (0..1000; default 5)")
    cm.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cm.add_argument("--json", action="store_true")
    _add_risk_command(sub)
    g = sub.add_parser("suggest-l", help="the largest feasible l per model, with the reason")
    _add_db(g)
    g.add_argument("--table", required=True)
    g.add_argument("--sa", required=True)
    g.add_argument("--json", action="store_true")


def _add_risk_command(sub: Any) -> None:
    k = sub.add_parser(
        "risk",
        help="re-identification risk: prosecutor, journalist, marketer, uniques, population estimates",
        description="The risk of re-identifying a record of a table or a release, on its classes (for a "
        "release the finest partition it publishes). Every figure is shown with its formula, the "
        "attacker model it assumes and its paper (docs/how-to/risk.md). A read, except --rows-out.",
    )
    _add_db(k)
    what = k.add_mutually_exclusive_group(required=True)
    what.add_argument("--table", help="the table to measure (its QIs: --qi)")
    what.add_argument("--release", help="a release table (its QIs: the recorded ones unless --qi)")
    k.add_argument("--qi", help="quasi-identifier columns a,b,c")
    alone = ("population", "sampling_fraction", "population_table")
    add_arguments(k.add_mutually_exclusive_group(), RiskFlags, alone)
    add_arguments(k, RiskFlags, ("threshold", "rows_out", "null_as_value"))
    k.add_argument("--json", action="store_true")


def _add_anonymize_command(sub: Any) -> None:
    """Anonymize, with every algorithm's declared options as flags (added once the command is chosen)."""
    a = sub.add_parser("anonymize", help="anonymize a table into a new, verified release")
    _add_db(a)
    a.add_argument(
        "--table", required=True, help="the source table (with --from: the new table its rows go to)"
    )
    a.add_argument("--from", dest="from_", metavar="CALL", help=FROM_HELP)
    a.add_argument("--qi", required=True)
    a.add_argument("--sa", required=True)
    a.add_argument("--algorithm", required=True)  # its choices: _add_algorithm_options
    a.add_argument("--output", required=True, help="the release table to write")
    a.add_argument("--json", action="store_true")
    add_arguments(a, AnonymizeFlags)
    a.add_argument("--option", action="append", metavar="KEY=VALUE", help="algorithm option")
    _later(a, _add_algorithm_options)
    _add_model_args(a)


def _add_algorithm_options(a: argparse.ArgumentParser) -> None:
    from ..algorithms import REGISTRY, declarations

    a.description = "algorithms: " + "; ".join(f"{n}: {cls.summary}" for n, cls in sorted(REGISTRY.items()))
    next(x for x in a._actions if x.dest == "algorithm").choices = sorted(REGISTRY)
    alg = a.add_argument_group("algorithm options (also as --option KEY=VALUE)")
    for name, opts in declarations().items():
        _add_option(alg, opts[0], "a_" + name, opts[1:])


def _later(p: argparse.ArgumentParser, add: Callable[[argparse.ArgumentParser], None]) -> None:
    """``add`` runs when ``p`` parses (a :class:`CommandParser`), at once on any other parser."""
    if isinstance(p, CommandParser):
        p.later(add)
    else:
        add(p)


def _add_other_commands(sub: Any) -> None:
    """Run, attack, release (append, history)."""
    r = sub.add_parser("run", help="run an ETL job file (TOML)")
    r.add_argument("job")
    r.add_argument("--json", action="store_true")
    r.add_argument(
        "--verbose",
        action="store_true",
        help="also print the algorithm's details (always in --json; the job key: [anonymize] verbose)",
    )
    r.add_argument("--quiet", action="store_true")
    at = sub.add_parser("attack", help="attacks on a release")
    ats = at.add_subparsers(dest="acommand", required=True, metavar="ATTACK")
    sim = ats.add_parser(
        "similarity", help="rows in groups whose SA values all fall in one sensitivity category"
    )
    _add_db(sim)
    sim.add_argument("--table", required=True)
    sim.add_argument("--qi", help="QI columns a,b (groups = equal QI values)")
    sim.add_argument("--group-column", help="group by this column instead")
    sim.add_argument("--sa", required=True)
    sim.add_argument(
        "--categories",
        help="FILE: value;category (1 = most sensitive); default: the categories stored for the SA "
        "(of the table, or of the release's source)",
    )
    sim.add_argument("--json", action="store_true")
    # release streams (Decomposition+ continuous release)
    rs = sub.add_parser(
        "release",
        help="publish a release; continuous release: append the next release of a stream, or its history",
    )
    rss = rs.add_subparsers(dest="rcommand", required=True, metavar="ACTION")
    ra = rss.add_parser("append", help="publish the next release of a stream from a table of new rows")
    _add_db(ra)
    ra.add_argument("--release", required=True, help="the stream's name (the --output of its first release)")
    ra.add_argument("--from", dest="from_table", required=True, metavar="NEW_ROWS", help="table of new rows")
    ra.add_argument(
        "--key", help="the stream's key column(s), as on its first release (optional; checked when given)"
    )
    ra.add_argument("--quiet", action="store_true")
    ra.add_argument("--json", action="store_true")
    ra.add_argument(
        "--verbose", action="store_true", help="also print the algorithm's details (always in --json)"
    )
    rh = rss.add_parser("history", help="releases of a stream, rows published, rows waiting, starvation")
    _add_db(rh)
    rh.add_argument("--release", required=True)
    rh.add_argument("--json", action="store_true")
    rpub = rss.add_parser(
        "publish",
        help="publish a draft release: checked with the published releases of its source first",
        description="A release is a draft until it is published. Publishing runs the composition check "
        "(ldiv compose) on the release and every published release of its source, and refuses (exit 1) "
        "when together they leave some source row with fewer SA values than a release's l. A published "
        "release is final: ldiv_db never replaces its table.",
    )
    _add_db(rpub)
    rpub.add_argument("--release", required=True, help="the release to publish (its --output)")
    rpub.add_argument(
        "--accept-composition",
        action="store_true",
        help="publish even when it composes below l with the published releases (recorded as accepted)",
    )
    rpub.add_argument("--json", action="store_true")


def _add_report_commands(sub: Any) -> None:
    rp = sub.add_parser(
        "report",
        help="an offline HTML report of releases: verdict, classes, diversity, risk, utility",
        description="One self-contained HTML file (inline SVG charts, no network). A release recorded by "
        "ldiv_db knows its source, QIs, SA and l; for a table made by another tool give --source, --qi, --sa.",
    )
    _add_db(rp)
    rp.add_argument("--release", action="append", required=True, help="release table (repeat for several)")
    rp.add_argument("--html", help="the HTML file to write")
    rp.add_argument("--source", help="source table of an external release")
    rp.add_argument("--qi", help="QI columns of an external release")
    rp.add_argument("--sa", help="SA column(s) of an external release")
    rp.add_argument("--l", help="l to draw as the threshold (integer >= 2; default: the release's)")
    rp.add_argument("--interval-labels", action="store_true", help="read numeric 'lo-hi' labels as ranges")
    rp.add_argument("--no-kl", action="store_true", help="skip the KL-divergence of external releases")
    rp.add_argument(
        "--null-as-value",
        action="store_true",
        help="treat NULL as a value of its own (a release recorded with --null-as-value is read so without it)",
    )
    rp.add_argument("--json", action="store_true")
    cp = sub.add_parser(
        "compare",
        help="run the algorithms that apply, each into <table>_cmp_<algorithm>, and one page to choose",
    )
    _add_db(cp)
    cp.add_argument("--table", required=True)
    cp.add_argument("--qi", required=True)
    cp.add_argument("--sa", required=True)
    cp.add_argument("--l", required=True, help="l of every algorithm's model (integer >= 1)")
    add_arguments(cp, CompareFlags)
    cp.add_argument("--json", action="store_true")


def _add_admin_commands(sub: Any) -> None:
    """Releases, doctor, sql install."""
    rl = sub.add_parser("releases", help="list recorded releases")
    _add_db(rl)
    rl.add_argument("--json", action="store_true")
    dr = sub.add_parser(
        "doctor",
        help="check the ldiv schema of a database and repair what can be repaired safely",
        description="Reports every ldiv object that is missing or differs from the shipped migrations. "
        "--repair recreates missing audit objects empty, re-records migrations whose objects are all "
        "present, and says what it cannot repair; user tables and release data are never touched.",
    )
    dr.add_argument(
        "db",
        help="DuckDB database file (on PostgreSQL and Spark every command checks the schema as it opens)",
    )
    dr.add_argument("--repair", action="store_true", help="restore what can be restored safely")
    dr.add_argument("--json", action="store_true")
    sq = sub.add_parser(
        "sql", help="ldiv_db's checks as SQL functions of the database (ldiv.l_diversity, ...)"
    )
    sqs = sq.add_subparsers(dest="scommand", required=True, metavar="ACTION")
    si = sqs.add_parser(
        "install",
        help="create ldiv.l_diversity, ldiv.violations, ldiv.recursive_violations, ldiv.class_stats",
        description="Creates (or replaces) in schema ldiv DuckDB table macros or PostgreSQL functions: "
        "SELECT * FROM ldiv.l_diversity('patients', ['age','sex','zip'], 'diagnosis') gives the statistics "
        "of ldiv check; ldiv.violations(table, qi, sa, model, n) the violating classes. Idempotent.",
    )
    _add_db(si)
    si.add_argument("--json", action="store_true")


def _add_option(g: Any, opt: Any, dest: str, also: Sequence[Any] = ()) -> None:
    """One declared option as a flag: its help shows the type, the range and the default (of each
    declaration, ``also`` holding another algorithm's declaration of the same name)."""
    extra: dict[str, Any] = {"nargs": "?", "const": "true"} if opt.kind == "flag" else {}
    metavar = {"flag": "BOOL", "int": "N", "number": "X", "pairs": "NAME=V,..."}.get(opt.kind, "VALUE")
    if opt.kind == "choice":
        choices = dict.fromkeys(c for o in (opt, *also) for c in o.choices)
        metavar = "{" + ",".join(choices) + "}"
    text = "; ".join(o.help_text() for o in (opt, *also))
    g.add_argument(opt.flag, dest=dest, default=None, metavar=metavar, help=text, **extra)


def _add_model_args(p: argparse.ArgumentParser) -> None:
    _later(p, _model_args)


def _model_args(p: argparse.ArgumentParser) -> None:
    from ..privacy.spec import MODEL_OPTIONS

    g = p.add_argument_group("privacy model")
    for opt in MODEL_OPTIONS:
        _add_option(g, opt, opt.name)  # one name from the flag to the spec: --l is args.l is spec.l


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("db", help=DB_HELP)
    p.add_argument(
        "--attach",
        action="append",
        metavar="NAME=PATH",
        help="attach another DuckDB file read-only (DuckDB only)",
    )
