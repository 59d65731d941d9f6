"""Verification against a privacy model, in one place: the verdict on a table (:mod:`.check`, what ``ldiv
check`` and the report compute), the per-partition rule and record of a release's verdicts
(:mod:`.verdicts`), the guarantees an algorithm promises beyond its model (:mod:`.guarantees`), and a
model's feasibility (:mod:`.suggest`, ``ldiv suggest-l``). The release pipeline runs them on the written
tables (:mod:`ldiv_db.pipeline.verify`)."""
