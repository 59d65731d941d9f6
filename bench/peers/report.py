"""The peers suite's table (bench/peers/suite.py): one row per workload and peer, with the peer's and
ldiv_db's best seconds (CPU seconds beside), the ratio ldiv_db / peer, and whether their answers agree:

* optimal: the same levels and rows deleted (the same optimum), or a lower Loss for ldiv_db; a higher
  Loss than the peer's is a failure (ldiv_db's search is exact);
* check against ARX: the rows ARX's one node suppresses are the rows of the classes ldiv_db finds
  violating the model, and ARX's classes are ldiv_db's others; against pycanon: the same k and distinct l;
* against anjana: both releases' NCP by ldiv_db's metric, and whether anjana's holds the model.
"""

from __future__ import annotations

from typing import Any

from bench.peers.tools import Workload

LOSS_TOLERANCE = 1e-9


def _best(figures: dict[str, Any], key: str = "seconds") -> float | None:
    runs = figures.get(key)
    return min(runs) if runs else None


def _arx_check_seconds(figures: dict[str, Any]) -> tuple[float, float]:
    """The best run of one node plus its class statistics, and the best CPU seconds."""
    totals = [a + b for a, b in zip(figures["seconds"], figures["seconds_statistics"], strict=True)]
    return min(totals), min(figures["cpu_seconds"])


def agree_optimal(ours: dict[str, Any], arx: dict[str, Any]) -> tuple[str, bool]:
    if arx.get("levels") is None:
        return "ARX found no optimum", True
    if ours["levels"] == arx["levels"] and ours["deleted"] == arx["deleted"]:
        return f"same optimum {','.join(map(str, ours['levels']))}, Loss {ours['loss']:.6f}", True
    if ours["loss"] < arx["loss"] - LOSS_TOLERANCE:
        return f"lower Loss: {ours['loss']:.6f} against ARX's {arx['loss']:.6f}", True
    if abs(ours["loss"] - arx["loss"]) <= LOSS_TOLERANCE:
        return f"another node of the same Loss {ours['loss']:.6f}", True
    return f"WORSE: Loss {ours['loss']:.6f} against ARX's {arx['loss']:.6f}", False


def agree_check_arx(ours: dict[str, Any], arx: dict[str, Any]) -> tuple[str, bool]:
    same = arx["suppressed"] == ours["violating_rows"] and arx["classes"] == (
        ours["classes"] - ours["violating_classes"]
    )
    text = (
        f"{ours['violating_rows']:,} rows in violating classes, {ours['classes']:,} classes; "
        f"ARX suppresses {arx['suppressed']:,}, keeps {arx['classes']:,}"
    )
    return ("same: " if same else "DIFFERENT: ") + text, same


def agree_check_pycanon(ours: dict[str, Any], py: dict[str, Any]) -> tuple[str, bool]:
    same = py["k"] == ours["k"] and py["l"] == ours["distinct_l"]
    return (
        f"{'same' if same else 'DIFFERENT'}: k {ours['k']}, l {ours['distinct_l']}; pycanon k {py['k']}, l {py['l']}",
        same,
    )


def agree_anjana(ours: dict[str, Any], anjana: dict[str, Any]) -> tuple[str, bool]:
    measured = anjana.get("measured")
    if not measured:
        return "anjana's release not measured", True
    holds = "holds" if measured["holds"] else "does NOT hold"
    text = (
        f"NCP {ours['ncp']:.3f} ({ours['deleted']:,} deleted) against anjana's {measured['ncp']:.3f} "
        f"({anjana['deleted']:,} deleted; its release {holds} the model)"
    )
    return text, True


def _row(w: Workload, peer: str, peer_figures: tuple[float, float] | None, ours: dict[str, Any] | None,
         agree: tuple[str, bool], load: float | None) -> dict[str, Any]:  # fmt: skip
    seconds, cpu = peer_figures if peer_figures else (None, None)
    mine = ours["seconds"] if ours else None
    ok = agree[1] and (ours is None or ours.get("verified", True))
    return {
        "key": w.key, "workload": w.label, "peer": peer, "peer_seconds": seconds, "peer_cpu_seconds": cpu,
        "ldiv_db_seconds": mine, "ldiv_db_cpu_seconds": ours["cpu_seconds"] if ours else None,
        "ratio": round(mine / seconds, 3) if mine is not None and seconds else None,
        "agree": agree[0], "ok": ok, "load": load,
    }  # fmt: skip


def rows(
    workloads: list[Workload], arx: dict[str, Any], py: dict[str, Any], ours: dict[str, Any]
) -> list[dict[str, Any]]:
    out = []
    for w in workloads:
        mine = ours.get(w.key)
        load = mine.get("load") if mine else None
        if w.key in arx and "unfinished_after" in arx[w.key] and mine:
            text = f"ARX unfinished after {arx[w.key]['unfinished_after']:.0f} s (stopped)"
            out.append(_row(w, "ARX", None, mine, (text, True), load))
        elif w.kind == "optimal" and w.key in arx and mine:
            a = arx[w.key]
            out.append(
                _row(
                    w,
                    "ARX",
                    (_best(a) or 0.0, _best(a, "cpu_seconds") or 0.0),
                    mine,
                    agree_optimal(mine, a),
                    load,
                )
            )
        elif w.kind == "check" and mine:
            if w.key in arx:
                a = arx[w.key]
                out.append(
                    _row(
                        w,
                        "ARX (node + class statistics)",
                        _arx_check_seconds(a),
                        mine,
                        agree_check_arx(mine, a),
                        load,
                    )
                )
            if w.key in py:
                p = py[w.key]
                out.append(
                    _row(
                        w,
                        "pycanon",
                        (_best(p) or 0.0, _best(p, "cpu_seconds") or 0.0),
                        mine,
                        agree_check_pycanon(mine, p),
                        load,
                    )
                )
        elif w.kind == "anjana" and w.key in py and mine:
            p = py[w.key]
            out.append(
                _row(
                    w,
                    "anjana",
                    (_best(p) or 0.0, _best(p, "cpu_seconds") or 0.0),
                    mine,
                    agree_anjana(mine, p),
                    load,
                )
            )
        elif mine:
            out.append(_row(w, "– (peer skipped)", None, mine, ("", True), load))
    return out  # fmt: skip


def _s(value: float | None, cpu: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.3f} ({cpu:.3f})" if cpu is not None else f"{value:.3f}"


def render(
    table: list[dict[str, Any]], started: str, load0: tuple[float, ...], load1: tuple[float, ...]
) -> str:
    head = (
        f"\npeers, {started}; load average {load0[0]:.2f} / {load0[1]:.2f} / {load0[2]:.2f} at the start, "
        f"{load1[0]:.2f} / {load1[1]:.2f} / {load1[2]:.2f} at the end; seconds: best wall (CPU)\n\n"
        "| workload | peer | peer s | ldiv_db s | ratio | load | agree |\n|---|---|---:|---:|---:|---:|---|"
    )
    lines = [head]
    for r in table:
        ratio = f"{r['ratio']:.2f}×" if r["ratio"] is not None else "–"
        load = f"{r['load']:.1f}" if r["load"] is not None else "–"
        lines.append(
            f"| {r['workload']} | {r['peer']} | {_s(r['peer_seconds'], r['peer_cpu_seconds'])} | "
            f"{_s(r['ldiv_db_seconds'], r['ldiv_db_cpu_seconds'])} | {ratio} | {load} | {r['agree']} |"
        )
    return "\n".join(lines)
