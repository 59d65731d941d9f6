"""Shared fixtures of the l+-Optimize tests: SPEC §5.9's Fig. 1 reconstruction, and the conversion of an
oracle problem (taxonomies + rows) into the engine's histogram form."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ldiv_db.algorithms.lplus.problem import Problem, Taxonomy
from tests.reference.lplus_oracle import Row, Tax

EDU = Tax("AnyEdu", {"AnyEdu": ["Sec", "Uni"], "Sec": ["Jr", "Sr"], "Uni": ["Ba", "Grad"]})
COUNTRY = Tax("AnyCountry", {"AnyCountry": ["Eu", "Am"], "Eu": ["UK", "France"], "Am": ["Canada", "USA"]})
FIG1: list[Row] = [
    (("Jr", "UK"), "Cancer", None),
    (("Jr", "France"), "Flu", None),
    (("Sr", "UK"), "Flu", None),
    (("Sr", "France"), "Cancer", None),
    (("Ba", "UK"), "Asthma", None),
    (("Ba", "USA"), "Flu", None),
    (("Ba", "Canada"), "Asthma", None),
    (("Grad", "USA"), "Asthma", None),
    (("Grad", "Canada"), "Cancer", None),
    (("Grad", "Canada"), "Cancer", None),
]


def preorder(t: Tax) -> tuple[list[str], list[int]]:
    labels: list[str] = []
    parent: list[int] = []

    def walk(v: str, p: int) -> None:
        me = len(labels)
        labels.append(v)
        parent.append(p)
        for c in t.kids.get(v, []):
            walk(c, me)

    walk(t.root, -1)
    return labels, parent


def to_problem(
    taxes: Sequence[Tax],
    rows: Sequence[Row],
    theta: dict[str, Fraction],
    metric: str = "lm",
    scheme: str = "nosupp",
) -> tuple[Problem, list[list[str]]]:
    pre = [preorder(t) for t in taxes]
    index = [{lab: i for i, lab in enumerate(labels)} for labels, _ in pre]
    sa_values: list[str] = []
    for r in rows:
        if r[1] not in sa_values:
            sa_values.append(r[1])
    classes = sorted({str(r[2]) for r in rows})
    hist = Counter((tuple(ix[v] for ix, v in zip(index, r[0], strict=True)), r[1], str(r[2])) for r in rows)
    cells = sorted(hist)
    leaf = np.array([[c[0][a] for c in cells] for a in range(len(taxes))], dtype=np.int64).reshape(
        len(taxes), -1
    )
    problem = Problem(
        taxonomies=[Taxonomy.of(p, labels) for labels, p in pre],
        leaf=leaf,
        sa=np.array([sa_values.index(c[1]) for c in cells], dtype=np.int64),
        count=np.array([hist[c] for c in cells], dtype=np.int64),
        theta=[(theta[v].numerator, theta[v].denominator) for v in sa_values],
        metric=metric,  # type: ignore[arg-type]
        scheme=scheme,  # type: ignore[arg-type]
        klass=np.array([classes.index(c[2]) for c in cells], dtype=np.int64) if metric == "cm" else None,
    )
    return problem, [labels for labels, _ in pre]
