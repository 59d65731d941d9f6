"""An exhaustive pandas evaluation of every full-domain (level) cut for two l+-Optimize settings with
θ = 1/l for every value: DM/allRec and LM/vioSA (SPEC §5.3–5.4). Independent of the search engine: it
generalizes the rows with the hierarchy's own level labels and groups them with pandas."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import pandas as pd

from ldiv_db.taxonomy import Hierarchy


def all_level_costs(
    frame: pd.DataFrame,
    qi: Sequence[str],
    sa: str,
    hierarchies: Sequence[Hierarchy],
    l_value: int,
    setting: str,
) -> dict[tuple[int, ...], Fraction | None]:
    """Cost of every level vector (None: never; both settings are always feasible)."""
    hist = frame.groupby([*qi, sa], observed=True).size().rename("n").reset_index()
    total = int(hist["n"].sum())
    d = len(qi)
    sizes = [h.domain_size for h in hierarchies]
    unit = math.lcm(*[s - 1 for s in sizes if s > 1])
    out: dict[tuple[int, ...], Fraction | None] = {}
    maps = [
        [{leaf: h.level_label(leaf, k) for leaf in hist[q].astype(str).unique()} for k in range(h.levels)]
        for q, h in zip(qi, hierarchies, strict=True)
    ]
    lm_maps = [
        [
            {leaf: (h.n_leaves(lab) - 1) * (unit // (s - 1)) if s > 1 else 0 for leaf, lab in m.items()}
            for m in per_level
        ]
        for per_level, h, s in zip(maps, hierarchies, sizes, strict=True)
    ]
    for combo in itertools.product(*(range(h.levels) for h in hierarchies)):
        g = pd.DataFrame(
            {
                f"g{i}": hist[q].astype(str).map(maps[i][k])
                for i, (q, k) in enumerate(zip(qi, combo, strict=True))
            }
        )
        g["s"] = hist[sa]
        g["n"] = hist["n"]
        keys = [f"g{i}" for i in range(d)]
        pairs = g.groupby([*keys, "s"], observed=True)["n"].sum().reset_index()
        size = pairs.groupby(keys)["n"].transform("sum")
        pairs["viol"] = pairs["n"] * l_value > size
        if setting == "dm-allrec":
            part = pairs.groupby(keys).agg(n=("n", "sum"), viol=("viol", "any"))
            cost = sum(
                int(n) * total if v else int(n) ** 2 for n, v in zip(part["n"], part["viol"], strict=True)
            )
            out[combo] = Fraction(cost)
        else:  # lm-viosa: LM per row (in units of 1/unit) needs no grouping; |QI| per suppressed SA value
            lm_units = sum(
                hist[q].astype(str).map(lm_maps[i][k]) for i, (q, k) in enumerate(zip(qi, combo, strict=True))
            )
            gen = int((lm_units * hist["n"]).sum())
            supp = int(pairs.loc[pairs["viol"], "n"].sum())
            out[combo] = Fraction(gen, unit) + d * supp
    return out
