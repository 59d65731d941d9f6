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
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..core.run_flags import (
    AnonymizeFlags,
    CheckFlags,
    CompareFlags,
    MetricsFlags,
    RiskFlags,
    from_namespace,
)
from ..errors import BadInput, LdivError
from .parser import build_parser
from .sigint import ENDED, on_sigint, on_unraisable, stop_asking


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
        "release publish",
        "sql install",
    }
)


def command_name(args: argparse.Namespace) -> str:
    sub = (
        getattr(args, "hcommand", None)
        or getattr(args, "rcommand", None)
        or getattr(args, "acommand", None)
        or getattr(args, "scommand", None)
    )
    return f"{args.command} {sub}" if sub else str(args.command)


_OPENED: list[Any] = []  # the databases this command opened, closed when it ends
# the command's early Spark starts (_start_spark_early), cancelled at its end
_EARLY_STARTS: list[threading.Event] = []


def _open(args: argparse.Namespace) -> Any:
    from ..db import Database

    writes = command_name(args) in WRITE_COMMANDS or getattr(args, "rows_out", None)  # risk --rows-out
    mode = "write" if writes else "read"
    db = Database.open(args.db, mode=mode, attach=_attach(getattr(args, "attach", None)))
    _OPENED.append(db)
    return db


def _end(code: int) -> None:
    """Close what the command opened (a Ctrl-C meanwhile is ignored: see :data:`.sigint.ENDED`); a command that
    failed leaves no database file it created (``Database.close(failed=...)``)."""
    while _OPENED:
        with contextlib.suppress(Exception):
            _OPENED.pop().close(failed=code != 0)
    for cancelled in _EARLY_STARTS:  # an early start not begun by now never begins
        cancelled.set()
    _EARLY_STARTS.clear()
    spark = sys.modules.get("ldiv_db.db.spark.session")  # not imported: no start has registered either
    if spark is not None:
        spark.abandon_early()


def _emit(args: argparse.Namespace, result: Any, *, verbose: bool = False) -> None:
    """The result as JSON (``--json``) or as text; ``verbose`` (``--verbose``, anonymize and run) asks
    the text for the algorithm's details too."""
    if getattr(args, "json", False):
        print(json.dumps(result.to_dict(), default=str, ensure_ascii=False))
    elif verbose:
        print(result.render_text(verbose=True))
    else:
        print(result.render_text())


def _model_spec(args: argparse.Namespace) -> Any:
    """The model flags as one ModelSpec (the only place the command line's model options are read)."""
    from ..privacy.spec import MODEL_OPTIONS, ModelSpec

    values = {o.name: getattr(args, o.name, None) for o in MODEL_OPTIONS}
    return ModelSpec.parse({k: v for k, v in values.items() if v is not None}, "cli")


def _algorithm_options(args: argparse.Namespace) -> dict[str, Any]:
    """The algorithm options as given (text): the flags, then ``--option KEY=VALUE``; a key given twice
    is an error. The chosen algorithm's declaration validates them (unknown keys included)."""
    from ..algorithms import declared_options
    from ..core.options import key_of

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


def _cmd_report(args: argparse.Namespace) -> int:
    from .. import api

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
                null_as_value=args.null_as_value,
            ),
        )
        return 0
    res = api.compare(_open(args), args.table, args.qi, args.sa, args.l, flags=args.flags)
    _emit(args, res)
    return 0


def _parse_values(args: argparse.Namespace) -> None:
    """Every value of the command line parsed and checked, before any database is opened (the one place
    the command line's numbers, options and model are read)."""
    from ..core.options import parse_int

    _attach(getattr(args, "attach", None))
    if hasattr(args, "model"):
        args.model_spec = _model_spec(args)
    if args.command == "check":
        args.check_flags = from_namespace(CheckFlags, args)
    elif args.command == "compose":
        args.worst = parse_int(args.worst, "--worst", low=0, high=1000, text=True)
    elif args.command == "metrics":
        args.flags = from_namespace(MetricsFlags, args)
    elif args.command == "risk":
        args.flags = from_namespace(RiskFlags, args)
    elif args.command == "report" and args.l is not None:
        args.l = parse_int(args.l, "--l", low=2, text=True)
    elif args.command == "compare":
        args.l = parse_int(args.l, "--l", low=1, text=True)
        args.flags = from_namespace(CompareFlags, args)
    elif args.command == "hierarchy" and args.hcommand == "build":
        args.widths = [parse_int(x, "--intervals entry", low=1, text=True) for x in args.intervals.split(",")]
    elif args.command == "hierarchy" and args.hcommand == "show":
        from ..privacy.spec import ModelSpec

        args.weights_spec = ModelSpec.parse({"weights": args.category_weights, "beta": args.beta}, "cli")
        beta = args.weights_spec.params["beta"]
        if beta is not None and not 1 <= beta <= 16:  # the sensitivity weights' β (β-likeness's is no weight)
            raise LdivError(
                f"--beta must be a number in [1, 16] for the sensitivity weights, got {args.beta}",
                "give --beta in [1, 16] (default 2)",
            )
    elif args.command == "anonymize":
        from ..algorithms import get_algorithm
        from ..commands.anonymize import AnonymizeCall
        from ..core.options import validate

        algo = get_algorithm(args.algorithm)
        options = validate(algo.options, _algorithm_options(args), "cli", f"{algo.name} options")
        flags = from_namespace(AnonymizeFlags, args)
        args.call = AnonymizeCall(
            args.table, args.qi, args.sa, args.output, algo.name, args.model_spec, options, flags
        )


def _cmd(args: argparse.Namespace) -> int:
    _start_spark_early(args)
    _parse_values(args)
    handler = _HANDLERS.get(args.command)
    if handler is None:
        raise LdivError(f"unknown command {args.command}")
    return handler(args)


def _start_spark_early(args: argparse.Namespace) -> None:
    """A ``spark://`` DB's session starts in a thread of its own now, while the command imports and checks
    what it needs: the driver JVM's start is seconds of waiting (:func:`ldiv_db.db.spark.session.start_early`;
    :func:`_end` cancels a start the command never used)."""
    db = getattr(args, "db", None)
    if isinstance(db, str) and db.lower().startswith("spark://"):
        cancelled = threading.Event()
        _EARLY_STARTS.append(cancelled)
        threading.Thread(
            target=_spark_start, args=(db, cancelled), name="ldiv-spark-start", daemon=True
        ).start()


def _spark_start(url: str, cancelled: threading.Event) -> None:
    from ..db.spark.session import start_early  # imported in this thread: the command does not wait for it

    start_early(url, cancelled)


def _cmd_load(args: argparse.Namespace) -> int:
    from ..commands.load import load  # not the whole API

    _emit(args, load(_open(args), args.file, args.table, sep=args.sep, replace=args.replace))
    return 0


def _cmd_hierarchy(args: argparse.Namespace) -> int:
    from .. import taxonomy

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


def _cmd_check(args: argparse.Namespace) -> int:
    db, flags = _open(args), args.check_flags
    if args.from_ is None:  # a table: the check alone, without the API's algorithms and report charts
        from ..verify.check import check

        if args.table is None:
            raise BadInput("no table given", "name the table to read: --table T (or the rows: --from ...)")

        res = check(db, args.table, args.qi, args.sa, model=args.model_spec, flags=flags)
    else:
        from ..commands.frames import check as check_rows

        res = check_rows(
            db, args.table, args.qi, args.sa, model=args.model_spec, from_=args.from_, flags=flags
        )
    _emit(args, res)
    return 0 if res.satisfied in (None, True) else 1


def _cmd_metrics(args: argparse.Namespace) -> int:
    from ..commands.metrics import metrics  # not the whole API: no algorithm, no report

    mres = metrics(_open(args), args.source, args.release, args.qi, args.sa, flags=args.flags)
    _emit(args, mres)
    return 0


def _cmd_compose(args: argparse.Namespace) -> int:
    from ..commands.compose import compose  # not the whole API: no algorithm, no report

    res = compose(_open(args), args.release, worst=args.worst, quiet=args.quiet)
    _emit(args, res)
    return 0 if res.ok else 1


def _cmd_suggest_l(args: argparse.Namespace) -> int:
    from ..verify.suggest import suggest_for  # not the whole API: no algorithm, no report

    _emit(args, suggest_for(_open(args), args.table, args.sa))
    return 0


def _cmd_risk(args: argparse.Namespace) -> int:
    from ..risks import risk

    res = risk(_open(args), args.table, release=args.release, qi=args.qi, flags=args.flags)
    _emit(args, res)
    return 0


def _cmd_anonymize(args: argparse.Namespace) -> int:
    from ..commands.frames import run_call

    _emit(args, run_call(_open(args), args.call, args.from_), verbose=args.call.flags.verbose)
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from ..commands.job import run_job

    res = run_job(args.job, quiet=args.quiet)
    _emit(args, res, verbose=args.verbose or res.verbose)
    return 0


def _cmd_attack(args: argparse.Namespace) -> int:
    from ..commands.attack import similarity

    if not args.qi and not args.group_column:
        raise LdivError("name the groups", "give --qi a,b or --group-column g")
    _emit(args, similarity(_open(args), args.table, args.qi, args.sa, args.categories, args.group_column))
    return 0


def _cmd_release(args: argparse.Namespace) -> int:
    from .. import api

    if args.rcommand == "publish":
        _emit(args, api.publish(_open(args), args.release, accept_composition=args.accept_composition))
        return 0
    if args.rcommand == "append":
        _emit(
            args,
            api.release_append(_open(args), args.release, args.from_table, quiet=args.quiet, key=args.key),
            verbose=args.verbose,
        )
    else:
        _emit(args, api.release_history(_open(args), args.release))
    return 0


def _cmd_releases(args: argparse.Namespace) -> int:
    from ..commands.releases import releases  # not the whole API: no algorithm, model or report

    _emit(args, releases(_open(args)))
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    from ..commands.doctor import doctor

    dres = doctor(args.db, repair=args.repair)
    _emit(args, dres)
    return 0 if dres.healthy else 1


def _cmd_sql(args: argparse.Namespace) -> int:
    from ..commands.sql_functions import install

    _emit(args, install(_open(args)))
    return 0


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "load": _cmd_load,
    "hierarchy": _cmd_hierarchy,
    "check": _cmd_check,
    "metrics": _cmd_metrics,
    "compose": _cmd_compose,
    "suggest-l": _cmd_suggest_l,
    "risk": _cmd_risk,
    "anonymize": _cmd_anonymize,
    "run": _cmd_run,
    "attack": _cmd_attack,
    "release": _cmd_release,
    "releases": _cmd_releases,
    "doctor": _cmd_doctor,
    "sql": _cmd_sql,
    "report": _cmd_report,
    "compare": _cmd_report,
}


def main(argv: Sequence[str] | None = None) -> int:
    from ..errors import clear_interrupt
    from ..util.interrupts import clear_committed

    clear_interrupt()
    clear_committed()
    ENDED["command"] = False
    previous = signal.getsignal(signal.SIGINT)
    previous_hook = sys.unraisablehook
    if previous is signal.default_int_handler:  # not when SIGINT is ignored (a background job)
        with contextlib.suppress(ValueError):  # only the main thread may set it
            signal.signal(signal.SIGINT, on_sigint)
            sys.unraisablehook = on_unraisable
    try:
        return _main_guarded(argv)
    finally:
        ENDED["command"] = True
        untaken = stop_asking()  # no re-sent SIGINT may reach the caller later, at a random place
        # a caller in this process gets its handler back; the process's own command line (argv None:
        # `ldiv ...`) keeps the ending handler until it exits, so a late Ctrl-C prints no traceback
        if argv is not None:
            sys.unraisablehook = previous_hook
            with contextlib.suppress(ValueError, TypeError):
                # signal.signal first runs a SIGINT already sent through the ending handler (ignored)
                signal.signal(signal.SIGINT, previous)
            if untaken and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                # the Ctrl-C came too late for the command, whose outcome stands: the caller gets it now
                raise KeyboardInterrupt


def _main_guarded(argv: Sequence[str] | None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:  # also during start-up: the imports and the parser build
        _stop_background()
        _report_interrupt()
        return 130
    except BrokenPipeError:  # `ldiv ... --json | head`: the reader left; silent (before Exception)
        _quiet_stdout()
        return 0
    except Exception:
        # Ctrl-C inside an import can surface wrapped (a class body's __set_name__ turns the
        # KeyboardInterrupt into a RuntimeError): the signal handler's note tells them apart
        from ..errors import interrupt_requested

        if not interrupt_requested():
            raise
        _stop_background()
        _report_interrupt()
        return 130


def _report_interrupt() -> None:
    """Say what a Ctrl-C left: nothing, or what was committed before it (exit 130 either way: the command
    was stopped; a release committed before the stop is complete, and its run is recorded ``done``)."""
    from ..util.interrupts import committed

    done = committed()
    if not done:
        print("interrupted: nothing was written", file=sys.stderr)
        return
    print(
        f"interrupted after the release was committed: {'; '.join(done)} "
        f"{'is' if len(done) == 1 else 'are'} published, complete (run recorded done); "
        "nothing after it was written",
        file=sys.stderr,
    )


def _stop_background() -> None:
    """No ldiv thread may still run in the engine when the process exits on Ctrl-C (the interpreter's end
    of such a thread aborts the process): stop and wait for any a run left behind."""
    background = sys.modules.get("ldiv_db.util.background")  # not imported yet: no thread either
    if background is not None:
        with contextlib.suppress(Exception, KeyboardInterrupt):  # a further Ctrl-C: it waited all the same
            background.stop_all()


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
    code = 130  # until the command returns: an interrupt or a broken pipe
    try:
        code = _cmd(args)
    except LdivError as exc:
        code = _say(exc)
    except BrokenPipeError:  # the command ran; only its output's reader left
        code = 0
        raise
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # the last line of defence: a clear message, not a traceback
        from ..errors import interrupt_requested

        if interrupt_requested() or "query interrupted" in str(exc).lower():  # Ctrl-C inside the engine
            raise KeyboardInterrupt from None
        env = _environment(exc, args)
        if env is not None:  # a full disk, a directory that may not be written: the user's to change
            code = _say(env)
        elif os.environ.get("LDIV_DEBUG"):
            raise
        else:
            print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
            print("  hint: set LDIV_DEBUG=1 to see the traceback and please report it", file=sys.stderr)
            code = 3
    finally:
        ENDED["command"] = True  # done, written or not: a Ctrl-C while the databases close changes nothing
        _end(code)
    return code


def _say(exc: LdivError) -> int:
    print(f"error: {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  hint: {exc.hint}", file=sys.stderr)
    return exc.exit_code


def _environment(exc: Exception, args: argparse.Namespace) -> LdivError | None:
    """An engine's or the OS's error that no layer below classified, told apart by the engines' own
    classifier (:func:`ldiv_db.db.engine_errors.environment_error`) when its cause is the user's
    environment."""
    from ..db.engine_errors import os_or_engine_cause

    db = getattr(args, "db", None)
    return os_or_engine_cause(exc, db if isinstance(db, str) else None)


if __name__ == "__main__":
    sys.exit(main())
