"""Every example of README.md and docs/ runs as written (issue 54, issue 52): each fenced bash, sh,
console and python block, in order per page, in a fresh directory set up like the checkout after
``make demo`` (tests/docs/examples.py). Pages that declare ``<!-- docs-test: page requires postgres -->``
run in test_examples_postgres.py; blocks declared ``skip`` are counted and listed, never silently
dropped. The counts are printed at the end of the session (tests/docs/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs import examples

PAGES = [p for p in examples.pages() if p.requires is None]


@pytest.mark.docs
@pytest.mark.parametrize("page", PAGES, ids=[p.path for p in PAGES])
def test_page_examples_run(
    page: examples.Page, tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    env = examples.workdir(tmp_path)
    done, skipped = examples.run(page, tmp_path, env)
    record_property("docs_blocks_run", len(done))
    record_property("docs_blocks_skipped", [f"{b.where} ({b.skip})" for b in skipped])
    assert done or skipped


def test_every_block_is_found() -> None:
    """The parser sees every fence of a runnable language: none is lost to a marker or a nesting."""
    for page in examples.pages():
        text = (examples.ROOT / page.path).read_text(encoding="utf-8")
        fences = [
            line for line in text.splitlines()
            if line.strip().startswith("```") and line.strip()[3:].strip() in examples.RUN_LANGS
        ]  # fmt: skip
        assert len(fences) == len(page.blocks), page.path


def test_requirements_are_known() -> None:
    assert {p.requires for p in examples.pages()} <= {None, "postgres", "spark"}


def test_markers_are_parsed(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "<!-- docs-test: skip needs a server -->\n```bash\nfalse\n```\n\ntext\n\n"
        "<!-- docs-test: exit 1 -->\n```sh\nexit 1\n```\n```python\nprint(1)\n```\n```text\nnot run\n```\n"
    )
    got = examples.parse_file(page, "p.md")
    assert [(b.lang, b.skip, b.exit) for b in got.blocks] == [
        ("bash", "needs a server", 0),
        ("sh", None, 1),
        ("python", None, 0),
    ]
    done, skipped = examples.run(got, tmp_path, examples.workdir(tmp_path))
    assert (len(done), len(skipped)) == (2, 1)


def test_a_failing_block_fails(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("```bash\necho before\nldiv check nowhere.duckdb --table t --sa s\necho after\n```\n")
    with pytest.raises(AssertionError, match=r"p.md:1: exit 2, expected 0"):
        examples.run(examples.parse_file(page, "p.md"), tmp_path, examples.workdir(tmp_path))


def test_the_readme_is_short_and_its_set_up_is_what_ci_runs() -> None:
    """README ≤ ~200 lines; its two set-up commands are the Makefile targets .ci/run calls, and the
    site is built in CI."""
    readme = (examples.ROOT / "README.md").read_text(encoding="utf-8")
    ci = (examples.ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert len(readme.splitlines()) <= 200
    setup = next(b for b in examples.parse(examples.ROOT / "README.md").blocks if b.skip)
    assert [line.split("#")[0].strip() for line in setup.code.splitlines() if line.startswith("make")] == [
        "make demo",
        "make test",
    ]
    assert "make test" in ci and "make docs" in ci
    assert "source .venv/bin/activate" in readme and ".venv/bin/ldiv" in readme
