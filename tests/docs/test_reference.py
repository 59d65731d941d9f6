"""The reference pages are generated from the code (docs/gen_reference.py): a changed help text changes
the page; every command, flag and declared option is on its page; the schema page lists every table of
the migrations."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from ldiv_db.algorithms import REGISTRY
from ldiv_db.cli.parser import build_parser
from ldiv_db.privacy.spec import MODEL_OPTIONS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "docs" / "gen_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_changing_an_options_help_changes_the_pages(gen: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = REGISTRY["mondrian"]
    old = cls.options[0]
    new = dataclasses.replace(old, help="a help text nobody wrote before 7f3c")
    before_options, before_cli = gen.options_page(), gen.cli_page()
    assert "7f3c" not in before_options + before_cli
    monkeypatch.setattr(cls, "options", (new, *cls.options[1:]))
    after_options, after_cli = gen.options_page(), gen.cli_page()
    assert "a help text nobody wrote before 7f3c" in after_options
    assert "a help text nobody wrote before 7f3c" in after_cli
    assert old.help not in after_options.split("## mondrian", 1)[1].split("\n## ", 1)[0]


def test_every_declared_option_is_on_the_options_page(gen: ModuleType) -> None:
    page = gen.options_page()
    for name, cls in REGISTRY.items():
        section = page.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]
        for opt in cls.options:
            row = next(line for line in section.splitlines() if line.startswith(f"| `{opt.flag}` |"))
            assert gen.cell(opt.type_text()) in row, (name, opt.name)
    model = page.split("## Privacy model options", 1)[1]
    assert {o.flag for o in MODEL_OPTIONS} == set(re.findall(r"^\| `(--[a-z-]+)` \|", model, re.M))


def test_every_command_and_flag_is_on_the_cli_page(gen: ModuleType) -> None:
    page = gen.cli_page()
    commands = [path.strip() for path, _, _ in gen._commands(build_parser(whole=True), "ldiv")]
    assert len(commands) >= 19
    for path, sub, _ in gen._commands(build_parser(whole=True), "ldiv"):
        section = page.split(f"\n## {path.strip()}\n", 1)[1].split("\n## ", 1)[0]
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}`" in section, (path, flag)


def test_the_schema_page_lists_every_table_of_the_migrations(gen: ModuleType) -> None:
    page = gen.schema_page()
    created = set()
    for path in (ROOT / "migrations").glob("[0-9]*.sql"):
        created |= set(re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?ldiv\.(\w+)", path.read_text()))
    assert created and {f"### ldiv.{t}" for t in created} <= set(page.splitlines())


def test_exit_codes_page_names_every_error_class(gen: ModuleType) -> None:
    from ldiv_db import errors

    page = gen.exit_codes_page()
    for cls in (errors.BadInput, errors.PrivacyViolation, errors.InternalError, errors.StorageError):
        assert f"`ldiv_db.errors.{cls.__name__}`" in page
    assert re.search(r"`ldiv_db.errors.PrivacyViolation` \| LdivError \| 1 \|", page)
