"""``ldiv compare``: run the algorithms that apply to a table, each into its own release, measure them (and
any releases made by other tools) the same way, and write one page to choose from."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..algorithms import REGISTRY
from ..commands.anonymize import AnonymizeCall, anonymize, hierarchy_ids
from ..core import ownership
from ..core.catalog import output_ref, resolve_table
from ..core.inputs import Inputs, as_list, resolve_inputs
from ..core.recorded import recorded_release
from ..core.run_flags import CompareFlags, api_flags
from ..db import Database
from ..errors import BadInput, LdivError
from ..pipeline.publication import mark_candidate
from ..util.words import l_of, number, show
from .comparison import CompareResult, Entry
from .gather import comparable, gather, summary
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
    null_as_value: bool = False,
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
            kw = {"l": l if len(inputs.sa) == 1 else [l] * len(inputs.sa), **_options(algo, alpha)}
            qi, sa = [c.name for c in inputs.qi], [c.name for c in inputs.sa]
            kw |= {
                "algorithm": algo,
                "replace": replace,
                "quiet": quiet,
                "kl": kl,
                "null_as_value": null_as_value,
            }
            res = anonymize(db, AnonymizeCall.from_api(table, qi, sa, out, kw))
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
    flags: CompareFlags | None = None,
    **kw: Any,
) -> CompareResult:
    """Run every applicable algorithm (or ``algorithms``) on ``table`` at ``l``, each into
    ``<table>_cmp_<algorithm>``; measure them and ``releases`` (tables of other tools, QI labels in the
    source's QI columns); write the page to ``html`` when given. ``kw``: the keywords of
    :class:`~ldiv_db.core.run_flags.CompareFlags`, or ``flags`` validated."""
    t0 = time.perf_counter()
    f = api_flags(CompareFlags, flags, kw, "ldiv_db.compare")
    if not isinstance(l, int) or l < 1:
        raise BadInput(f"l = {l!r} is not a positive integer", "give --l 2 or more")
    chosen = _chosen_algorithms(f.algorithms)
    alpha, releases, html, quiet, kl, nv = f.alpha, f.releases, f.html, f.quiet, f.kl, f.null_as_value
    if html is not None:
        check_page_path(html)  # before any work: a page never replaces the user's data
    with Database.writing(db) as database:
        inputs = resolve_inputs(database, table, qi, sa, null_as_value=nv)
        for name in releases:  # before anything is written
            resolve_table(database, name)
        entries = run_algorithms(
            database, inputs, l, chosen, alpha=alpha, quiet=quiet, kl=kl, null_as_value=nv
        )
        for name in releases:
            entries.append(Entry(name, "(external)", name, "external"))
        names = [c.name for c in inputs.qi]
        sas = [c.name for c in inputs.sa]
        for e in entries:
            if e.status in ("ok", "external") and e.output is not None:
                # a recorded release is judged against its own l; another tool's table against this l
                own = e.status == "external" and recorded_release(database, e.output) is not None
                e.facts = gather(
                    database,
                    e.output,
                    source=inputs.table.name,
                    qi=names,
                    sa=sas,
                    l=None if own else l,
                    kl=kl,
                    null_as_value=nv,
                )
                if e.status == "external":
                    e.reason = "measured against the source" + (
                        "" if own else f" and judged at l = {l} (no recorded model)"
                    )
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


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _own_l(s: dict[str, Any]) -> str:
    ls = s.get("l") or []
    return l_of({"l": ls}) if ls else "no l"


def tradeoffs(result: CompareResult) -> list[str]:
    """Plain-language notes on what the numbers show: the best release per criterion and who dominates,
    among the releases made for the comparison's l (:func:`comparable`); the others are named as such,
    and each release's guessing bound is judged against its own l."""
    every = [(e.label, summary(e.facts)) for e in result.measured() if e.facts is not None]
    if not every:
        return ["no release could be measured; see the reasons in the table"]
    notes = [
        f"{n} was made for {s['model'] or 'no model'}, not for l = {result.l}: judged against its own l "
        f"({_own_l(s)}), and not comparable on privacy with the others (left out of the rankings below)."
        for n, s in every
        if not comparable(result.l, s)
    ]
    rows = [(n, s) for n, s in every if comparable(result.l, s)] or every

    def best(key: str) -> tuple[str, dict[str, Any]]:
        return min(rows, key=lambda r: (r[1][key] if r[1][key] is not None else float("inf"), r[0]))

    name, s = min(rows, key=lambda r: (r[1]["ncp"], r[0]))
    notes.append(
        f"Least information loss: {name} (NCP {show('ncp', s['ncp'])} of the QI detail lost per cell)."
    )
    clean = [n for n, r in rows if r["rows_deleted"] == 0 and r["cells_suppressed"] == 0]
    if clean:
        notes.append(
            f"{_names(clean)} {'deletes' if len(clean) == 1 else 'delete'} no row and "
            f"{'suppresses' if len(clean) == 1 else 'suppress'} no cell: every row is published, with "
            "generalized values instead."
        )
    else:
        name, s = min(rows, key=lambda r: (r[1]["rows_deleted"], r[1]["cells_suppressed"] or 0, r[0]))
        notes.append(
            f"Fewest rows deleted, then cells suppressed: {name} ({number(s['rows_deleted'])} of "
            f"{number(s['rows_in'])} rows deleted; "
            f"{number(s['cells_suppressed'])} cells suppressed)."
        )
    _, s = best("max_confidence")
    top = [n for n, r in rows if r["max_confidence"] <= s["max_confidence"] + 1e-12]
    notes.append(
        f"Strongest protection against a best guess: {_names(top)} (an attacker who finds a person's class "
        f"guesses the SA value right with probability at most {show('max_confidence', s['max_confidence'])})."
    )
    loose = [n for n, r in every if _above_one_over_l(r)]
    if loose:
        notes.append(
            f"{_names(loose)} {'lets' if len(loose) == 1 else 'let'} an attacker guess some SA value with "
            "a probability above 1/l of its own l: distinct l-diversity bounds how many values a class "
            "holds, not how often the most frequent one occurs."
        )
    kls = [r for r in rows if r[1]["kl"] is not None]
    if kls:
        name, s = min(kls, key=lambda r: r[1]["kl"])
        notes.append(f"Closest (QI, SA) distribution to the source: {name} (KL {show('kl', s['kl'])}).")
    timed = [(e.label, e.seconds) for e in result.entries if e.status == "ok" and e.seconds is not None]
    if timed:
        name, sec = min(timed, key=lambda t: t[1])
        notes.append(f"Fastest: {name} ({sec:.1f} s for the whole run, writing and verification included).")
    notes += _dominated(rows)
    unverified = [f"{n} ({_own_l(s)})" for n, s in every if s["verified"] is False]
    if unverified:
        notes.append(f"Not l-diverse at their own l: {', '.join(unverified)}.")
    notes += [f"{n}: {s['headline']}." for n, s in every if s["table_state"] not in (None, "intact")]
    return notes


def _above_one_over_l(s: dict[str, Any]) -> bool:
    """Some SA's highest confidence above 1/l of that SA's own l."""
    ls = s.get("l") or []
    return bool(ls) and s["max_confidence"] > 1 / min(ls) + 1e-12


def _dominated(rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Releases another one beats or equals on every criterion (rows comparable on privacy only)."""
    keys = ("ncp", "rows_deleted", "cells_suppressed", "max_confidence")
    out = []
    for a, sa_ in rows:
        for b, sb in rows:
            va = [sa_[k] if sa_[k] is not None else float("inf") for k in keys]
            vb = [sb[k] if sb[k] is not None else float("inf") for k in keys]
            if a != b and all(y <= x for x, y in zip(va, vb, strict=True)) and vb != va:
                out.append(
                    f"{a} is dominated by {b} (same l): {b} loses no more information, deletes no more rows, "
                    "suppresses no more cells and gives the attacker no better guess."
                )
                break
    return out
