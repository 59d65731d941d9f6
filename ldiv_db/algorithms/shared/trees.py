"""What several algorithms share about QIs: how each QI is priced and published (its kind), and the
stored taxonomies as preorder arrays (:class:`Tree`: the store's
:class:`~ldiv_db.taxonomy.arrays.TaxonomyArrays` with the LCA rows BSGI and Mondrian need)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

from ...taxonomy.arrays import IntArray as IntArray  # re-exported: the int64 array type of the algorithms
from ...taxonomy.arrays import TaxonomyArrays
from ...taxonomy.stored import load_arrays
from ..base import AnonymizeRequest, lca_kinds

if TYPE_CHECKING:
    from ...db import Database

Kind = Literal["hierarchy", "numeric", "flat"]


@dataclass
class Tree:
    """A stored taxonomy as preorder arrays (:class:`TaxonomyArrays`): node ids 0..N-1, root = 0, the
    subtree of node i is the id range ``i..last[i]``; adds a cache of LCA rows."""

    arrays: TaxonomyArrays
    _lca_rows: dict[int, IntArray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._ids = np.arange(self.arrays.size, dtype=np.int64)

    @property
    def parent(self) -> IntArray:
        return self.arrays.parent

    @property
    def n_leaves(self) -> IntArray:
        return self.arrays.n_leaves

    @property
    def last(self) -> IntArray:
        return self.arrays.last

    @property
    def domain(self) -> int:
        """|A|: the number of leaves."""
        return self.arrays.domain

    def ancestors(self, x: int) -> list[int]:
        """x and its ancestors, root last."""
        out = []
        while x >= 0:
            out.append(x)
            x = int(self.parent[x])
        return out

    def lca_row(self, x: int) -> IntArray:
        """LCA(x, y) for every node y (cached per x): the deepest ancestor of x whose id range holds y."""
        row = self._lca_rows.get(x)
        if row is None:
            row = np.zeros(len(self.parent), dtype=np.int64)
            for a in reversed(self.ancestors(x)[:-1]):  # root's child first, x last
                row[(self._ids >= a) & (self._ids <= self.last[a])] = a
            self._lca_rows[x] = row
        return row


def qi_kinds(request: AnonymizeRequest) -> list[Kind]:
    """How each QI is priced and published, exactly as the pipeline's 'lca' recoding does."""
    return lca_kinds(request.inputs.qi, request.hierarchy_ids)


def load_trees(db: Database, hids: Sequence[int], kinds: Sequence[str]) -> dict[int, Tree]:
    """The stored taxonomies of the hierarchy QIs, by id (read by the taxonomy store)."""
    wanted = [h for h, k in zip(hids, kinds, strict=True) if k == "hierarchy"]
    return {hid: Tree(arrays) for hid, arrays in load_arrays(db, wanted).items()}


def narrow_dtype(*codes: np.ndarray) -> type:
    """int32 when every value of ``codes`` fits in it (codes may be raw values, of any sign), else int64:
    what the algorithms keep per row or cell at scale (BSGI's code stacks, l+-Optimize's node ids) is kept
    in it and widened where it is priced (numpy promotes int32 against int64 operands)."""
    fits = all(c.size == 0 or (int(c.min()) >= -(2**31) and int(c.max()) < 2**31) for c in codes)
    return np.int32 if fits else np.int64
