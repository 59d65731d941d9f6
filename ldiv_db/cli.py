"""The ``ldiv`` command. Every subcommand calls the public API; errors are printed as one clear message
with a hint (exit 2 for bad input, 1 for a violated model, 3 for an internal error), never a traceback
(set LDIV_DEBUG=1 to see one)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
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
    out = {}
    for v in values or []:
        if "=" not in v:
            raise LdivError(f"cannot read --attach {v!r}", "use --attach NAME=PATH (attached read-only)")
        name, path = v.split("=", 1)
        out[name.strip()] = path.strip()
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


def _open(args: argparse.Namespace) -> Any:
    from .db import Database

    mode = "write" if command_name(args) in WRITE_COMMANDS else "read"
    return Database.open(args.db, mode=mode, attach=_attach(getattr(args, "attach", None)))


def _emit(args: argparse.Namespace, result: Any) -> None:
    if getattr(args, "json", False):
        print(json.dumps(result.to_dict(), default=str, ensure_ascii=False))
    else:
        print(result.render_text())


def _weights(spec: str | None) -> Any:
    if spec is None or spec in ("uniform", "sensitivity"):
        return spec
    out = {}
    for part in spec.split(","):
        if "=" not in part:
            raise LdivError(
                f"cannot read --category-weights {spec!r}", "use uniform, sensitivity or 1=0,2=1/3,3=2/3,4=1"
            )
        k, v = part.split("=", 1)
        out[int(k)] = v.strip()
    return out


def _model_options(args: argparse.Namespace) -> dict[str, Any]:
    from .inputs import parse_thresholds

    return {
        "c": args.c,
        "k": args.k,
        "alpha": args.alpha,
        "thresholds": parse_thresholds(args.thresholds),
        "sensitivity": args.sensitivity,
        "categories": args.categories,
        "weights": _weights(args.category_weights),
        "beta": args.beta,
        "entropy_over": args.entropy_over,
    }


def _add_model_args(p: argparse.ArgumentParser, with_l: bool = True) -> None:
    g = p.add_argument_group("privacy model")
    g.add_argument(
        "--model",
        help="k-anonymity, distinct, entropy, recursive, frequency, unique-distinct, lplus, "
        "distinct-alpha, entropy-alpha, recursive-alpha",
    )
    if with_l:
        g.add_argument("--l", help="l (one per SA for several SAs: 5,3,2)")
    g.add_argument("--c", help="c of recursive (c,l)-diversity")
    g.add_argument("--k", type=int, help="k of k-anonymity")
    g.add_argument("--alpha", help="alpha of the (l,alpha) models")
    g.add_argument("--thresholds", help="l+ thresholds: FILE (value;theta) or v1=0.3,v2=1/4")
    g.add_argument("--sensitivity", action="store_true", help="l+ thresholds derived from value frequencies")
    g.add_argument(
        "--categories",
        help="sensitivity categories FILE (value;category, 1 = most sensitive); default: the stored ones",
    )
    g.add_argument(
        "--category-weights",
        dest="category_weights",
        help="(l,alpha) category weights: uniform (default), sensitivity, or 1=0,2=1/3,...",
    )
    g.add_argument("--beta", default="2", help="beta of the sensitivity weights (default 2)")
    g.add_argument("--entropy-over", default="categories", choices=["categories", "values"])


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("db", help="DuckDB database file (a write command creates it if missing)")
    p.add_argument("--attach", action="append", metavar="NAME=PATH", help="attach another database read-only")


def _parse_l(value: str | None) -> Any:
    if value is None:
        return None
    if value.strip().lower() == "auto":
        return "auto"
    parts = [x.strip() for x in value.split(",") if x.strip()]
    try:
        nums = [int(x) for x in parts]
    except ValueError:
        raise LdivError(f"l must be an integer (or one per SA: 5,3,2), got {value!r}") from None
    return nums[0] if len(nums) == 1 else nums


def _algorithm_options(args: argparse.Namespace) -> dict[str, Any]:
    from .algorithms import REGISTRY

    out: dict[str, Any] = {}
    for cls in REGISTRY.values():
        for flag, _ in cls.cli_args:
            dest = flag.lstrip("-").replace("-", "_")
            value = getattr(args, dest, None)
            if value is not None and value is not False:
                out[dest] = value
    return out


def build_parser() -> argparse.ArgumentParser:
    from .algorithms import REGISTRY

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
    hw.add_argument("--beta", default="2", help="beta of the sensitivity weights (default 2)")
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
    c.add_argument("--worst", type=int, default=5, help="how many of the worst groups to list")
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
    m.add_argument("--l", type=int, help="l for CAVG")
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
    a.add_argument("--l", help="l, one per SA, or 'auto' for the largest feasible l")
    a.add_argument("--output", required=True, help="the release table to write")
    a.add_argument("--replace", action="store_true", help="replace an existing output (atomically)")
    a.add_argument("--quiet", action="store_true", help="no progress on stderr")
    a.add_argument("--json", action="store_true")
    a.add_argument("--seed", type=int)
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
    alg = a.add_argument_group("algorithm options")
    seen: set[str] = set()
    for cls in sorted(REGISTRY.values(), key=lambda c: c.name):
        for flag, kwargs in cls.cli_args:
            if flag not in seen:
                seen.add(flag)
                alg.add_argument(flag, **dict(kwargs))
    _add_model_args(a, with_l=False)

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
    rp.add_argument("--l", type=int, help="l to draw as the threshold (default: the release's)")
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
    cp.add_argument("--l", type=int, required=True)
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


def _cmd(args: argparse.Namespace) -> int:
    from . import api

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
            widths = [int(x) for x in args.intervals.split(",") if x.strip()]
            info = taxonomy.build_hierarchy(db, args.table, args.column, widths)
            print(info)
        elif args.hcommand == "import-categories":
            print(taxonomy.import_categories(db, args.table, args.column, args.file))
        else:
            weights = _weights(args.category_weights)
            print(taxonomy.show_hierarchy(db, args.table, args.column, weights, args.beta))
        return 0
    if args.command == "check":
        res = api.check(
            _open(args),
            args.table,
            args.qi,
            args.sa,
            model=args.model,
            l=_parse_l(args.l),
            group_column=args.group_column,
            null_as_value=args.null_as_value,
            worst=args.worst,
            null_sa_unknown=args.null_sa_unknown,
            **_model_options(args),
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
        options: dict[str, Any] = {}
        for kv in args.option or []:
            if "=" not in kv:
                raise LdivError(f"cannot read --option {kv!r}", "use --option KEY=VALUE")
            k, v = kv.split("=", 1)
            options[k.strip().replace("-", "_")] = v.strip()
        options.update(_algorithm_options(args))
        ares = api.anonymize(
            _open(args),
            args.table,
            args.qi,
            args.sa,
            algorithm=args.algorithm,
            output=args.output,
            l=_parse_l(args.l),
            model=args.model,
            replace=args.replace,
            quiet=args.quiet,
            keep_columns=[x for x in (args.keep_columns or "").split(",") if x.strip()],
            class_column=args.class_column,
            null_as_value=args.null_as_value,
            seed=args.seed,
            keep_work=args.keep_work,
            model_options=_model_options(args),
            kl=not args.no_kl,
            allow_empty=args.allow_empty,
            **options,
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _cmd(args)
    except LdivError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {exc.hint}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted: nothing was written", file=sys.stderr)
        return 130
    except Exception as exc:  # the last line of defence: a clear message, not a traceback
        if os.environ.get("LDIV_DEBUG"):
            raise
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("  hint: set LDIV_DEBUG=1 to see the traceback and please report it", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
