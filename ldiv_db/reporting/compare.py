"""``ldiv compare``: run the algorithms that apply to a table, each into its own release, measure them (and
any releases made by other tools) the same way, and write one page to choose from."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..algorithms import REGISTRY
from ..commands.anonymize import anonymize, hierarchy_ids
from ..core import ownership
from ..core.catalog import output_ref, resolve_table
from ..core.inputs import Inputs, as_list, resolve_inputs
from ..db import Database
from ..errors import BadInput, LdivError
from ..pipeline.publication import mark_candidate
from ..privacy.spec import MODEL_OPTIONS
from .comparison import CompareResult, Entry
from .gather import gather, summary
from .output import check_page_path, write_page
from .page_compare import compare_page

DEFAULT_ALGORITHMS = ("bsgi", "mondrian", "tp", "tp+", "hilbert", "lplus", "topdown")
NOT_COMPARED = {
    "full-domain": "applies one transformation you choose (--levels); run it with ldiv anonymize and add "
    "the result with --release",
    "decomposition": "publishes three tables (QIDs, SA multisets, marginals), not one generalized table",
}
LPLUS_TIME_LIMIT = 8.0  # seconds; l+-Optimize then publishes its best cut and reports the proven gap


def output_name(table: str, algorithm: str) -> str:
    return f"{table}_cmp_{algorithm.replace('+', 'plus').replace('-', '_')}"


def _own_output(db: Database, name: str) -> bool:
    """May compare write ``name``? Yes when it is free (False: nothing to replace), or one of ldiv_db's own
    releases of that name, unchanged since written (True: replace it). Anything else is refused by the
    one ownership rule (:mod:`ldiv_db.core.ownership`), before any algorithm runs."""
    ref = output_ref(name)
    if not db.exists(ref):
        return False
    ownership.check_release_targets(db, ref, [ref], replace=True)
    return True


def _check_outputs(db: Database, inputs: Inputs, algorithms: Sequence[str]) -> None:
    """Before the first release is written: every table compare would write may be written (refused by
    name otherwise), so a compare that is refused writes none."""

    for algo in algorithms:
        if algo not in REGISTRY or _applicable(db, inputs, algo) is not None:
            continue  # the loop reports these
        out = output_name(inputs.table.name, algo)
        try:
            _own_output(db, out)
        except BadInput as exc:
            raise BadInput(
                f"{exc.message} (compare writes {algo}'s release to {out}); nothing was written",
                f"drop or rename {out}, or leave {algo} out of --algorithms",
            ) from None


def _applicable(db: Database, inputs: Inputs, algorithm: str) -> str | None:
    """Why ``algorithm`` does not apply to these inputs (None when it does)."""

    if algorithm in NOT_COMPARED:
        return NOT_COMPARED[algorithm]
    if algorithm == "lplus":
        hids, _ = hierarchy_ids(db, inputs.table.name)
        missing = [c.name for c in inputs.qi if c.name not in hids]
        if missing:
            return f"every QI needs a hierarchy; none stored for {', '.join(missing)}"
    if algorithm == "topdown" and inputs.categories is None:
        return f"needs sensitivity categories for {inputs.sa[0].name} (ldiv hierarchy import-categories)"
    if algorithm in ("topdown", "lplus", "tp", "tp+", "hilbert") and len(inputs.sa) != 1:
        return "takes one sensitive attribute"
    return None


def _chosen_algorithms(algorithms: str | Sequence[str] | None) -> list[str]:
    """The algorithms to run, checked before anything is opened: known, each named once, not empty."""

    if algorithms is None:
        return list(DEFAULT_ALGORITHMS)
    chosen = [a.strip().lower() for a in as_list(algorithms)]
    if not chosen or any(not a for a in chosen):
        raise BadInput(
            f"--algorithms {algorithms!r} names an empty algorithm",
            f"give a comma-separated list, e.g. --algorithms bsgi,mondrian (available: {', '.join(sorted(REGISTRY))})",
        )
    for algo in chosen:
        if algo not in REGISTRY:
            raise BadInput(f"unknown algorithm {algo!r}", f"available: {', '.join(sorted(REGISTRY))}")
    twice = sorted({a for a in chosen if chosen.count(a) > 1})
    if twice:
        raise BadInput(f"--algorithms names {', '.join(twice)} twice", "name each algorithm once")
    return chosen


def _alpha(alpha: Any) -> Any:
    """--alpha parsed by the model option's own declaration (type and range), whether or not topdown runs."""

    return next(o for o in MODEL_OPTIONS if o.name == "alpha").parse(alpha, "cli")


def _options(algorithm: str, alpha: Any) -> dict[str, Any]:
    if algorithm == "lplus":
        return {"time_limit": LPLUS_TIME_LIMIT}
    if algorithm == "topdown":
        return {"model_options": {"alpha": alpha}}
    return {}


def run_algorithms(
    db: Database,
    inputs: Inputs,
    l: int,
    algorithms: Sequence[str],
    *,
    alpha: Any,
    quiet: bool,
    kl: bool,
) -> list[Entry]:

    entries = []
    table = inputs.table.name
    _check_outputs(db, inputs, algorithms)
    for algo in algorithms:
        if algo not in REGISTRY:
            raise BadInput(f"unknown algorithm {algo!r}", f"available: {', '.join(sorted(REGISTRY))}")
        why = _applicable(db, inputs, algo)
        if why is not None:
            entries.append(Entry(algo, algo, None, "skipped", why))
            continue
        out = output_name(table, algo)
        replace = _own_output(db, out)
        t0 = time.perf_counter()
        try:
            res = anonymize(
                db,
                table,
                [c.name for c in inputs.qi],
                [c.name for c in inputs.sa],
                algorithm=algo,
                output=out,
                l=l if len(inputs.sa) == 1 else [l] * len(inputs.sa),
                replace=replace,
                quiet=quiet,
                kl=kl,
                **_options(algo, alpha),
            )
        except LdivError as exc:
            entries.append(Entry(algo, algo, out, "failed", exc.message, time.perf_counter() - t0))
            continue
        mark_candidate(db, res.release_id)  # a draft among candidates: nothing compare writes is published
        note = ""
        if algo == "lplus" and res.details.get("optimal") is False:
            note = f"stopped at the {LPLUS_TIME_LIMIT:g} s time limit: the best cut found, proven gap {res.details.get('gap')}"
        entries.append(Entry(algo, algo, res.output, "ok", note, res.seconds))
    return entries


def compare(
    db: Any,
    table: str,
    qi: str | Sequence[str],
    sa: str | Sequence[str],
    l: int,
    *,
    algorithms: str | Sequence[str] | None = None,
    releases: Sequence[str] = (),
    html: str | None = None,
    alpha: Any = 1,
    quiet: bool = True,
    kl: bool = True,
) -> CompareResult:
    """Run every applicable algorithm (or ``algorithms``) on ``table`` at ``l``, each into
    ``<table>_cmp_<algorithm>``; measure them and ``releases`` (tables of other tools, QI labels in the
    source's QI columns); write the page to ``html`` when given."""
    t0 = time.perf_counter()
    if not isinstance(l, int) or l < 1:
        raise BadInput(f"l = {l!r} is not a positive integer", "give --l 2 or more")
    chosen = _chosen_algorithms(algorithms)
    alpha = _alpha(alpha)
    if html is not None:
        check_page_path(html)  # before any work: a page never replaces the user's data
    database = Database.open(db, mode="write")
    failed = False  # a failed command leaves no database file it created
    try:
        inputs = resolve_inputs(database, table, qi, sa)
        for name in releases:  # before anything is written
            resolve_table(database, name)
        entries = run_algorithms(database, inputs, l, chosen, alpha=alpha, quiet=quiet, kl=kl)
        for name in releases:
            entries.append(Entry(name, "(external)", name, "external"))
        names = [c.name for c in inputs.qi]
        sas = [c.name for c in inputs.sa]
        for e in entries:
            if e.status in ("ok", "external") and e.output is not None:
                e.facts = gather(database, e.output, source=inputs.table.name, qi=names, sa=sas, l=l, kl=kl)
                if e.status == "external":
                    e.reason = "measured against the source"
        if not any(e.facts is not None for e in entries):
            raise BadInput(
                "no release could be measured: "
                + "; ".join(f"{e.label} {e.status}: {e.reason}" for e in entries),
                "see each reason; a smaller --l (ldiv suggest-l) or other --algorithms may apply",
            )
        result = CompareResult(inputs.table.name, names, sas, l, entries)
        result.notes = tradeoffs(result)
        if html is not None:
            result.seconds = time.perf_counter() - t0
            result.html = write_page(html, compare_page(result, database.path or "(in memory)"))
        result.seconds = time.perf_counter() - t0
        return result
    except BaseException:
        failed = True
        raise
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close(failed=failed)


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def tradeoffs(result: CompareResult) -> list[str]:
    """Plain-language notes on what the numbers show: the best release per criterion and who dominates."""
    rows = [(e.label, summary(e.facts)) for e in result.measured() if e.facts is not None]
    if not rows:
        return ["no release could be measured; see the reasons in the table"]
    notes = []

    def best(key: str) -> tuple[str, dict[str, Any]]:
        return min(rows, key=lambda r: (r[1][key] if r[1][key] is not None else float("inf"), r[0]))

    name, s = best("ncp")
    notes.append(
        f"Least information loss: {name} (NCP {s['ncp'] * 100:.2f} % of the QI detail lost per cell)."
    )
    clean = [n for n, r in rows if not r["rows_suppressed"]]
    if clean:
        notes.append(
            f"{_names(clean)} {'suppresses' if len(clean) == 1 else 'suppress'} nothing: every row is "
            "published, with generalized values instead."
        )
    else:
        name, s = best("rows_suppressed")
        notes.append(
            f"Fewest suppressed rows: {name} ({s['rows_suppressed']:,} of {s['rows_in']:,} rows deleted, "
            "starred or with the SA removed)."
        )
    _, s = best("max_confidence")
    top = [n for n, r in rows if r["max_confidence"] <= s["max_confidence"] + 1e-12]
    notes.append(
        f"Strongest protection against a best guess: {_names(top)} (an attacker who finds a person's class "
        f"guesses the SA value right with probability at most {s['max_confidence']:.3f})."
    )
    loose = [n for n, r in rows if r["max_confidence"] > 1 / result.l + 1e-12]
    if loose:
        notes.append(
            f"{_names(loose)} {'lets' if len(loose) == 1 else 'let'} an attacker guess some SA value with "
            f"a probability above 1/l = 1/{result.l}: distinct l-diversity bounds how many values a class "
            "holds, not how often the most frequent one occurs."
        )
    kls = [r for r in rows if r[1]["kl"] is not None]
    if kls:
        name, s = min(kls, key=lambda r: r[1]["kl"])
        notes.append(f"Closest (QI, SA) distribution to the source: {name} (KL {s['kl']:.3f}).")
    timed = [(e.label, e.seconds) for e in result.entries if e.status == "ok" and e.seconds is not None]
    if timed:
        name, sec = min(timed, key=lambda t: t[1])
        notes.append(f"Fastest: {name} ({sec:.1f} s for the whole run, writing and verification included).")
    keys = ("ncp", "rows_suppressed", "max_confidence")
    for a, sa_ in rows:
        for b, sb in rows:
            if a != b and all(sb[k] <= sa_[k] for k in keys) and any(sb[k] < sa_[k] for k in keys):
                notes.append(
                    f"{a} is dominated by {b}: {b} loses no more information, suppresses no more rows and "
                    "gives the attacker no better guess."
                )
                break
    unverified = [n for n, s in rows if s["verified"] is False]
    if unverified:
        notes.append(f"Not l-diverse at l = {result.l}: {', '.join(unverified)}.")
    notes += [f"{n}: {s['headline']}." for n, s in rows if s["table_state"] not in (None, "intact")]
    return notes
