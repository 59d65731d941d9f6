"""A verified release of `patients`, published by ldiv_db with dbt's own DuckDB connection.

ldiv_db writes the release as its own table (`patients_release_ldiv`, recorded in ldiv.release and
verified there; a rerun replaces it, as ldiv_db replaces its own drafts) and this model is a copy of it
that dbt manages and tests."""

import ldiv_db


def model(dbt, session):
    dbt.config(materialized="table")
    dbt.source("raw", "patients")  # the dependency, for dbt's graph
    result = ldiv_db.anonymize(
        session,  # dbt-duckdb's cursor wrapper: ldiv_db unwraps it
        "main.patients",
        ["age", "sex", "race"],
        "occupation",
        algorithm="mondrian",
        l=3,
        output="patients_release_ldiv",
        replace=True,
        seed=20261126,
    )
    if not result.verified:
        raise RuntimeError(f"release {result.output} failed verification")
    return session.table(result.output)
