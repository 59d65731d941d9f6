"""What several algorithms share about QIs: how each QI is priced and published (its kind), and the
stored taxonomies as preorder arrays (:class:`Tree`, read by ``sql/bsgi/nodes.sql``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

from ...render import render
from ..base import AnonymizeRequest, lca_kinds

if TYPE_CHECKING:
    from ...db import Database

Kind = Literal["hierarchy", "numeric", "flat"]
IntArray = npt.NDArray[np.int64]


@dataclass
class Tree:
    """A stored taxonomy as preorder arrays (ldiv.hierarchy_node): node ids 0..N-1, root = 0, the
    subtree of node i is the id range ``i..last[i]``."""

    parent: IntArray
    n_leaves: IntArray
    last: IntArray
    domain: int  # |A|: the number of leaves
    _lca_rows: dict[int, IntArray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._ids = np.arange(len(self.parent), dtype=np.int64)

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
    """The stored taxonomies of the hierarchy QIs as preorder arrays (``bsgi/nodes.sql``), by id."""
    wanted = sorted({h for h, k in zip(hids, kinds, strict=True) if k == "hierarchy"})
    if not wanted:
        return {}
    nodes = db.df(render("bsgi/nodes.sql", {"hids": wanted}))
    out: dict[int, Tree] = {}
    for hid, part in nodes.groupby("hierarchy_id", sort=True):
        n_leaves = part["n_leaves"].to_numpy(dtype=np.int64)
        out[int(str(hid))] = Tree(
            parent=part["parent_id"].to_numpy(dtype=np.int64),
            n_leaves=n_leaves,
            last=part["last_leaf"].to_numpy(dtype=np.int64),
            domain=int(n_leaves[0]),
        )
    return out
