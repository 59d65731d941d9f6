"""The release pipeline every algorithm's output goes through: write, reconcile with the source, verify
the privacy model on the written tables, measure, record — in one transaction.

- :mod:`.publish`: THE release writer, for a release of one table or several (the contract is
  :class:`ldiv_db.algorithms.base.Release`);
- :mod:`.one_table`: a :class:`~ldiv_db.algorithms.base.Partitioning` as the release of one table;
- :mod:`.verify`: the checks of a written one-table release (reconcile, verify, metrics);
- :mod:`ldiv_db.schema.runs`: the run lifecycle in ``ldiv.run``;
- :mod:`.stream`: release streams' state (``ldiv.stream``) and ``ldiv release history``;
- :mod:`.append`: ``ldiv release append``;
- :mod:`.result`: what a release reports.

Nothing here is imported by an algorithm; the pipeline imports the algorithms' contract.
"""
