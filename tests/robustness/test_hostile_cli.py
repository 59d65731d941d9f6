"""Hostile-input property test (issue 11): argument lists for every ``ldiv`` subcommand and TOML job
files, generated from the parser's declared flags and options, run in-process on a copy of a small
census database. Every command exits 0, 1 or 2, says ``error:`` on 2, never prints a traceback or
``internal error``, and a refused command leaves the catalog as it was (see cli_rules for every rule).

Derandomized (the same examples on every run); ``-m slow`` runs a longer variant.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ldiv_db.cli.main import WRITE_COMMANDS

from .cli_rules import Fixture, check
from .hostile_inputs import LEAVES, WRITERS, argv_for, job_document, sweep_cases

# More examples where there is more to get wrong.
WEIGHT = {("anonymize",): 4, ("check",): 2, ("load",): 2, ("release", "append"): 2}
EXAMPLES = 9
SLOW_FACTOR = 12


def _settings(n: int) -> settings:
    return settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: the full example is printed
    )


@pytest.fixture(scope="module")
def fx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fixture]:
    yield Fixture.build(tmp_path_factory.mktemp("hostile"))


def _assert_behaves(fx: Fixture, argv: list[str], job: str | None = None, loaded: str | None = None) -> None:
    outcome = check(fx, argv, job=job, loaded=loaded)
    assert not outcome.broken, f"{outcome.describe()}\n  broke: {outcome.broken}" + (
        f"\n  job file:\n{job}" if job else ""
    )


COMMANDS = sorted(p for p in LEAVES if p != ("run",))


def test_the_sweeps_writers_are_the_clis() -> None:
    # a write command taken for a read fails the "a read changes nothing" rule only in the long sweep
    assert {" ".join(p) for p in WRITERS} == set(WRITE_COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_hostile_command_lines(fx: Fixture, path: tuple[str, ...]) -> None:
    @_settings(EXAMPLES * WEIGHT.get(path, 1))
    @given(argv=argv_for(path))
    def inner(argv: list[str]) -> None:
        _assert_behaves(fx, argv)

    inner()


def test_hostile_job_files(fx: Fixture) -> None:
    @_settings(EXAMPLES * 4)
    @given(job=job_document(), json_flag=st.booleans())
    def inner(job: tuple[str, str | None], json_flag: bool) -> None:
        _assert_behaves(fx, ["run", "@JOB@", "--quiet", *(["--json"] if json_flag else [])], *job)

    inner()


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(LEAVES), ids=" ".join)
def test_hostile_inputs_long(fx: Fixture, path: tuple[str, ...]) -> None:
    n = EXAMPLES * SLOW_FACTOR * WEIGHT.get(path, 1)
    if path == ("run",):

        @_settings(n * 4)
        @given(job=job_document())
        def jobs(job: tuple[str, str | None]) -> None:
            _assert_behaves(fx, ["run", "@JOB@", "--quiet"], *job)

        jobs()
        return

    @_settings(n)
    @given(argv=argv_for(path))
    def inner(argv: list[str]) -> None:
        _assert_behaves(fx, argv)

    inner()


SWEEP = sweep_cases()


@pytest.mark.slow
@pytest.mark.parametrize("argv", SWEEP, ids=[" ".join(a[:2] + a[-2:])[:60] for a in SWEEP])
def test_flag_sweep(fx: Fixture, argv: list[str]) -> None:
    _assert_behaves(fx, argv)
