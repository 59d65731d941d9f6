"""Code several algorithms use: QI kinds and taxonomy arrays (:mod:`.trees`), the Max-l schedule
(:mod:`.schedule`), LCA labels from arrays (:mod:`.lca`), memory (:mod:`.memory`). No algorithm imports
another algorithm, but for two that build on one: TP+ runs Hilbert's grouping on its residue
(:mod:`ldiv_db.algorithms.hilbert.curve`), and Optimal publishes through full-domain's
levels (:mod:`ldiv_db.algorithms.full_domain.levels`); the independence contract in pyproject.toml
names both."""
