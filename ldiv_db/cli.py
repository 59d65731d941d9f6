"""The ``ldiv`` command. Every subcommand calls the public API; errors are printed as one clear message
with a hint (exit 2 for bad input, 1 for a violated model, 3 for an internal error), never a traceback
(set LDIV_DEBUG=1 to see one)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import LdivError

EPILOG = """examples:
  ldiv load my.duckdb adult.csv --table adult --sep ';'
  ldiv hierarchy import my.duckdb --table adult --column age adult_hierarchy_age.csv
  ldiv hierarchy import-categories my.duckdb --table adult --column health categories.csv
  ldiv check my.duckdb --table adult --qi age,sex,race --sa occupation --model distinct --l 3
  ldiv suggest-l my.duckdb --table adult --sa occupation
  ldiv anonymize my.duckdb --table adult --qi age,sex --sa occupation --algorithm full-domain \\
       --levels age=2,sex=0 --l 2 --output adult_release
  ldiv report my.duckdb --release adult_release --html report.html
  ldiv compare my.duckdb --table adult --qi age,sex,race --sa occupation --l 4 --html compare.html
"""


def _attach(values: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values or []:
        if "=" not in v:
            raise LdivError(f"cannot read --attach {v!r}", "use --attach NAME=PATH (attached read-only)")
        name, path = (x.strip() for x in v.split("=", 1))
        if not name or not path:
            raise LdivError(
                f"cannot read --attach {v!r}: the name and the path must not be empty", "NAME=PATH"
            )
        twice = [k for k in out if k.lower() == name.lower()]
        if twice:
            raise LdivError(
                f"--attach names the alias {name!r} twice ({out[twice[0]]!r} and {path!r})",
                "give every attached database its own NAME",
            )
        out[name] = path
    return out


# The commands that write into the database file: they create it if missing and migrate it. Every other
# command is a read: it opens the file read-only and creates nothing (Database.open's mode).
WRITE_COMMANDS = frozenset(
    {
        "load",
        "anonymize",
        "run",
        "compare",
        "hierarchy import",
        "hierarchy build",
        "hierarchy import-categories",
        "release append",
    }
)


def command_name(args: argparse.Namespace) -> str:
    sub = (
        getattr(args, "hcommand", None) or getattr(args, "rcommand", None) or getattr(args, "acommand", None)
    )
    return f"{args.command} {sub}" if sub else str(args.command)


_OPENED: list[Any] = []  # the databases this command opened, closed when it ends


def _open(args: argparse.Namespace) -> Any:
    from .db import Database

    mode = "write" if command_name(args) in WRITE_COMMANDS else "read"
    db = Database.open(args.db, mode=mode, attach=_attach(getattr(args, "attach", None)))
    _OPENED.append(db)
    return db


def _new_file(args: argparse.Namespace) -> Path | None:
    """The database file a write command would create (its path does not exist yet), else None."""
    from .db.urls import is_postgres_url

    db = getattr(args, "db", None)
    if not isinstance(db, str) or db.strip() in ("", ":memory:") or is_postgres_url(db) or Path(db).exists():
        return None
    return Path(db)


def _end(code: int, new_file: Path | None) -> None:
    """Close what the command opened; a command that failed leaves no database file it created."""
    while _OPENED:
        with contextlib.suppress(Exception):
            _OPENED.pop().close()
    if code != 0 and new_file is not None:
        for f in (new_file, Path(f"{new_file}.wal")):
            with contextlib.suppress(OSError):
                f.unlink()


def _emit(args: argparse.Namespace, result: Any) -> None:
    if getattr(args, "json", False):
        print(json.dumps(result.to_dict(), default=str, ensure_ascii=False))
    else:
        print(result.render_text())


def _model_spec(args: argparse.Namespace) -> Any:
    """The model flags as one ModelSpec (the only place the command line's model options are read)."""
    from .privacy.spec import MODEL_OPTIONS, ModelSpec

    values = {o.name: getattr(args, "m_" + o.name, None) for o in MODEL_OPTIONS}
    return ModelSpec.parse({k: v for k, v in values.items() if v is not None}, "cli")


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
    from .privacy.spec import MODEL_OPTIONS

    g = p.add_argument_group("privacy model")
    for opt in MODEL_OPTIONS:
        _add_option(g, opt, "m_" + opt.name)


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("db", help="DuckDB database file (a write command creates it if missing)")
    p.add_argument("--attach", action="append", metavar="NAME=PATH", help="attach another database read-only")


def _algorithm_options(args: argparse.Namespace) -> dict[str, Any]:
    """The algorithm options as given (text): the flags, then ``--option KEY=VALUE``; a key given twice
    is an error. The chosen algorithm's declaration validates them (unknown keys included)."""
    from .algorithms import declared_options
    from .options import key_of

    out: dict[str, Any] = {}
    for name in declared_options():
        value = getattr(args, "a_" + name, None)
        if value is not None:
            out[name] = value
    for kv in args.option or []:
        if "=" not in kv:
            raise LdivError(f"cannot read --option {kv!r}", "use --option KEY=VALUE")
        k, v = kv.split("=", 1)
        if key_of(k) in out:
            raise LdivError(f"option {k.strip()!r} is given twice", "give each option once")
        out[key_of(k)] = v.strip()
    return out


def build_parser() -> argparse.ArgumentParser:
    from .algorithms import REGISTRY, declarations

    p = argparse.ArgumentParser(
        prog="ldiv",
        description="In-database l-diversity anonymization on DuckDB.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("load", help="load a CSV or Parquet file into a table")
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

    c = sub.add_parser("check", help="privacy statistics of any table, and a model's verdict")
    _add_db(c)
    c.add_argument("--table", required=True)
    c.add_argument("--qi", help="quasi-identifier columns a,b,c")
    c.add_argument("--sa", required=True, help="sensitive attribute(s)")
    c.add_argument("--group-column", help="group by this column instead of the QI values")
    c.add_argument("--null-as-value", action="store_true", help="treat NULL as a value of its own")
    c.add_argument("--worst", default="5", help="how many of the worst groups to list (0..10^6; default 5)")
    c.add_argument(
        "--null-sa-unknown",
        action="store_true",
        help="a NULL SA value is a suppressed 'unknown' (counts in the group size, is no value)",
    )
    c.add_argument("--json", action="store_true")
    _add_model_args(c)

    m = sub.add_parser("metrics", help="utility metrics of a release against its source")
    _add_db(m)
    m.add_argument("--source", required=True)
    m.add_argument("--release", required=True)
    m.add_argument("--qi", required=True)
    m.add_argument("--sa", required=True)
    m.add_argument("--l", help="l for CAVG (integer >= 2)")
    m.add_argument("--class-column", help="class column for CM (must be in the release)")
    m.add_argument(
        "--group-column", default="group_id", help="group column of the release (default group_id)"
    )
    m.add_argument(
        "--interval-labels",
        action="store_true",
        help="read numeric 'lo-hi' labels as ranges even where a hierarchy node has the same text "
        "(releases of bsgi and mondrian; the anonymize command does this itself)",
    )
    m.add_argument("--no-kl", action="store_true", help="skip the KL-divergence (the costliest metric)")
    m.add_argument("--json", action="store_true")

    g = sub.add_parser("suggest-l", help="the largest feasible l per model, with the reason")
    _add_db(g)
    g.add_argument("--table", required=True)
    g.add_argument("--sa", required=True)
    g.add_argument("--json", action="store_true")

    a = sub.add_parser(
        "anonymize",
        help="anonymize a table into a new, verified release",
        description="algorithms: " + "; ".join(f"{n}: {cls.summary}" for n, cls in sorted(REGISTRY.items())),
    )
    _add_db(a)
    a.add_argument("--table", required=True)
    a.add_argument("--qi", required=True)
    a.add_argument("--sa", required=True)
    a.add_argument("--algorithm", required=True, choices=sorted(REGISTRY))
    a.add_argument("--output", required=True, help="the release table to write")
    a.add_argument("--replace", action="store_true", help="replace an existing output (atomically)")
    a.add_argument("--quiet", action="store_true", help="no progress on stderr")
    a.add_argument("--json", action="store_true")
    a.add_argument("--seed", help="seed of the random choices (integer in [0, 2^63-1])")
    a.add_argument("--keep-work", action="store_true", help="keep intermediate tables in schema ldiv_work")
    a.add_argument("--keep-columns", help="other columns to publish unchanged (never identifiers!)")
    a.add_argument("--class-column", help="class column (CM metric); published unchanged")
    a.add_argument("--null-as-value", action="store_true")
    a.add_argument(
        "--no-kl", action="store_true", help="skip the KL-divergence metric (the costliest metric)"
    )
    a.add_argument(
        "--allow-empty",
        action="store_true",
        help="publish the release even when it has no rows (refused by default, with the reason)",
    )
    a.add_argument("--option", action="append", metavar="KEY=VALUE", help="algorithm option")
    alg = a.add_argument_group("algorithm options (also as --option KEY=VALUE)")
    for name, opts in declarations().items():
        _add_option(alg, opts[0], "a_" + name, opts[1:])
    _add_model_args(a)

    r = sub.add_parser("run", help="run an ETL job file (TOML)")
    r.add_argument("job")
    r.add_argument("--json", action="store_true")
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
        "release", help="continuous release: append the next release of a stream, or its history"
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
    rh = rss.add_parser("history", help="releases of a stream, rows published, rows waiting, starvation")
    _add_db(rh)
    rh.add_argument("--release", required=True)
    rh.add_argument("--json", action="store_true")

    _add_report_commands(sub)

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
    dr.add_argument("db", help="DuckDB database file")
    dr.add_argument("--repair", action="store_true", help="restore what can be restored safely")
    dr.add_argument("--json", action="store_true")
    return p


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
    cp.add_argument(
        "--algorithms", help="comma-separated (default: bsgi,mondrian,tp,tp+,hilbert,lplus,topdown)"
    )
    cp.add_argument("--release", action="append", default=[], help="add a release made by another tool")
    cp.add_argument("--alpha", default="1", help="alpha of topdown's distinct-alpha model (default 1)")
    cp.add_argument("--html", help="the HTML file to write")
    cp.add_argument("--no-kl", action="store_true", help="skip the KL-divergence metric")
    cp.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cp.add_argument("--json", action="store_true")


def _cmd_report(args: argparse.Namespace) -> int:
    from . import api

    if args.command == "report":
        _emit(
            args,
            api.report(
                _open(args),
                args.release,
                html=args.html,
                source=args.source,
                qi=args.qi,
                sa=args.sa,
                l=args.l,
                interval_labels=True if args.interval_labels else None,
                kl=not args.no_kl,
            ),
        )
        return 0
    res = api.compare(
        _open(args),
        args.table,
        args.qi,
        args.sa,
        args.l,
        algorithms=args.algorithms,
        releases=args.release,
        html=args.html,
        alpha=args.alpha,
        quiet=args.quiet,
        kl=not args.no_kl,
    )
    _emit(args, res)
    return 0


def _parse_values(args: argparse.Namespace) -> None:
    """Every value of the command line parsed and checked, before any database is opened (the one place
    the command line's numbers, options and model are read)."""
    from .options import parse_int

    _attach(getattr(args, "attach", None))
    if hasattr(args, "m_model"):
        args.model_spec = _model_spec(args)
    if args.command == "check":
        args.worst = parse_int(args.worst, "--worst", low=0, high=10**6, text=True)
    elif args.command in ("metrics", "report") and args.l is not None:
        args.l = parse_int(args.l, "--l", low=2, text=True)
    elif args.command == "compare":
        args.l = parse_int(args.l, "--l", low=1, text=True)
    elif args.command == "hierarchy" and args.hcommand == "build":
        args.widths = [parse_int(x, "--intervals entry", low=1, text=True) for x in args.intervals.split(",")]
    elif args.command == "hierarchy" and args.hcommand == "show":
        from .privacy.spec import ModelSpec

        args.weights_spec = ModelSpec.parse({"weights": args.category_weights, "beta": args.beta}, "cli")
    elif args.command == "anonymize":
        from .algorithms import get_algorithm
        from .anonymize import MAX_SEED
        from .options import validate

        algo = get_algorithm(args.algorithm)
        args.algorithm_options = validate(
            algo.options, _algorithm_options(args), "cli", f"{algo.name} options"
        )
        if args.seed is not None:
            args.seed = parse_int(args.seed, "--seed", low=0, high=MAX_SEED, text=True)


def _cmd(args: argparse.Namespace) -> int:
    from . import api

    _parse_values(args)

    if args.command == "load":
        _emit(args, api.load(_open(args), args.file, args.table, sep=args.sep, replace=args.replace))
        return 0
    if args.command == "hierarchy":
        from . import taxonomy

        db = _open(args)
        if args.hcommand == "import":
            info = taxonomy.import_hierarchy(db, args.table, args.column, args.file, sep=args.sep)
            print(info)
        elif args.hcommand == "build":
            info = taxonomy.build_hierarchy(db, args.table, args.column, args.widths)
            print(info)
        elif args.hcommand == "import-categories":
            print(taxonomy.import_categories(db, args.table, args.column, args.file))
        else:
            weights, beta = args.weights_spec.params["weights"], args.weights_spec.params["beta"]
            print(taxonomy.show_hierarchy(db, args.table, args.column, weights, beta))
        return 0
    if args.command == "check":
        res = api.check(
            _open(args),
            args.table,
            args.qi,
            args.sa,
            model=args.model_spec,
            group_column=args.group_column,
            null_as_value=args.null_as_value,
            worst=args.worst,
            null_sa_unknown=args.null_sa_unknown,
        )
        _emit(args, res)
        return 0 if res.satisfied in (None, True) else 1
    if args.command == "metrics":
        mres = api.metrics(
            _open(args),
            args.source,
            args.release,
            args.qi,
            args.sa,
            l=args.l,
            class_column=args.class_column,
            group_column=args.group_column,
            interval_labels=args.interval_labels,
            kl=not args.no_kl,
        )
        _emit(args, mres)
        return 0
    if args.command == "suggest-l":
        _emit(args, api.suggest_l(_open(args), args.table, args.sa))
        return 0
    if args.command == "anonymize":
        ares = api.anonymize(
            _open(args),
            args.table,
            args.qi,
            args.sa,
            algorithm=args.algorithm,
            output=args.output,
            model=args.model_spec,
            replace=args.replace,
            quiet=args.quiet,
            keep_columns=[x for x in (args.keep_columns or "").split(",") if x.strip()],
            class_column=args.class_column,
            null_as_value=args.null_as_value,
            seed=args.seed,
            keep_work=args.keep_work,
            kl=not args.no_kl,
            allow_empty=args.allow_empty,
            **args.algorithm_options,
        )
        _emit(args, ares)
        return 0
    if args.command == "run":
        from .job import run_job

        _emit(args, run_job(args.job, quiet=args.quiet))
        return 0
    if args.command == "attack":
        from .attack import similarity

        if not args.qi and not args.group_column:
            raise LdivError("name the groups", "give --qi a,b or --group-column g")
        _emit(args, similarity(_open(args), args.table, args.qi, args.sa, args.categories, args.group_column))
        return 0
    if args.command == "release":
        if args.rcommand == "append":
            _emit(
                args,
                api.release_append(
                    _open(args), args.release, args.from_table, quiet=args.quiet, key=args.key
                ),
            )
        else:
            _emit(args, api.release_history(_open(args), args.release))
        return 0
    if args.command == "releases":
        _emit(args, api.releases(_open(args)))
        return 0
    if args.command == "doctor":
        from .doctor import doctor

        dres = doctor(args.db, repair=args.repair)
        _emit(args, dres)
        return 0 if dres.healthy else 1
    if args.command in ("report", "compare"):
        return _cmd_report(args)
    raise LdivError(f"unknown command {args.command}")


def _on_sigint(signum: int, frame: Any) -> None:
    from .errors import note_interrupt

    note_interrupt()
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    from .errors import clear_interrupt

    clear_interrupt()
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:  # not when SIGINT is ignored (a background job)
        with contextlib.suppress(ValueError):  # only the main thread may set it
            signal.signal(signal.SIGINT, _on_sigint)
    try:
        return _main_guarded(argv)
    finally:
        with contextlib.suppress(ValueError, TypeError):
            signal.signal(signal.SIGINT, previous)


def _main_guarded(argv: Sequence[str] | None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:  # also during start-up: the imports and the parser build
        print("interrupted: nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `ldiv ... --json | head`: the reader left; say nothing more
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (captured output): nothing to redirect
        pass


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    new_file = _new_file(args)
    code = 130  # until the command returns: an interrupt or a broken pipe
    try:
        code = _cmd(args)
    except LdivError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {exc.hint}", file=sys.stderr)
        code = exc.exit_code
    except BrokenPipeError:  # the command ran; only its output's reader left
        code = 0
        raise
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # the last line of defence: a clear message, not a traceback
        from .errors import interrupt_requested

        if interrupt_requested() or "query interrupted" in str(exc).lower():  # Ctrl-C inside the engine
            raise KeyboardInterrupt from None
        if os.environ.get("LDIV_DEBUG"):
            raise
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("  hint: set LDIV_DEBUG=1 to see the traceback and please report it", file=sys.stderr)
        code = 3
    finally:
        _end(code, new_file)
    return code


if __name__ == "__main__":
    sys.exit(main())
