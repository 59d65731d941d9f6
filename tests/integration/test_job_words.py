"""Errors raised while a job file runs name the job's keys, not the command line's flags (issue 52: the
job-file example's hint named ``--suppression-limit`` where the job key is ``suppression_limit``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ldiv_db.cli.main import main
from ldiv_db.commands.job import job_words


def test_a_refused_job_names_the_job_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # zip 10070 holds disease a only: at level 0 that class has 1 distinct value < l = 2, and at
    # suppression limit 0 full-domain may delete none of its rows, so the run is refused
    (tmp_path / "p.csv").write_text("zip;disease\n10070;a\n10070;a\n10071;a\n10071;b\n10072;b\n10072;c\n")
    (tmp_path / "zip.csv").write_text("10070;1007*;*\n10071;1007*;*\n10072;1007*;*\n")
    job = tmp_path / "job.toml"
    job.write_text(
        'database = "p.duckdb"\n[source]\ntable = "p"\nload = "p.csv"\nsep = ";"\n[hierarchies]\n'
        'zip = "zip.csv"\n[anonymize]\nqi = ["zip"]\nsa = "disease"\nalgorithm = "full-domain"\n'
        'l = 2\noutput = "p_rel"\n[anonymize.options]\nlevels = { zip = 0 }\n'
    )
    code = main(["run", str(job)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "suppression_limit in [anonymize.options]" in err, err
    assert "--suppression-limit" not in err and "Traceback" not in err, err


def test_job_words_maps_each_kind_of_flag() -> None:
    said = job_words(
        "raise --l, set --c, use --suppression-limit, drop --no-kl, keep --attach", "full-domain"
    )
    assert said == (
        "raise l in [anonymize], set c in [anonymize.model_options], use suppression_limit in "
        "[anonymize.options], drop kl = false in [anonymize], keep --attach"
    )
