"""Ghinita et al.'s "Hilbert" l-diversity heuristic on the whole table (TP's baseline, SPEC §1.12).

The curve and the l-eligible grouping are :mod:`.curve`, which TP+ runs on its residue too; this module
runs them over every row.
"""

from __future__ import annotations

import time

from ...errors import InternalError
from ..base import Algorithm, AnonymizeRequest, Partitioning
from .curve import eligible_l, require_l_eligible, split_rows, write_group_stars


class Hilbert(Algorithm):
    """Ghinita et al.'s Hilbert heuristic on the whole table: TP's experimental baseline (SPEC §1.12)."""

    name = "hilbert"
    default_model = "frequency"
    summary = (
        "Hilbert-curve order cut into l-eligible groups (Ghinita et al. 2007, reconstructed); '*' suppression"
    )

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        l = eligible_l(request, self.name)
        require_l_eligible(request, l)
        split = split_rows(request, l, first_gid=1)
        if split.table is None:
            raise InternalError("Hilbert produced no groups")
        return Partitioning(
            assignment=split.table,
            recoding="suppress",
            details={
                "hilbert_groups": split.groups,
                "hilbert_stars": split.stars,
                "hilbert_max_l_from_group": split.max_l_from,
                "hilbert_leftover_rows": split.leftovers,
                "algorithm_seconds": round(time.perf_counter() - t0, 4),
            },
            groups=split.groups,
            group_stars=write_group_stars(request, split),
        )
