"""The compiled templates kept between processes (ldiv_db/sqlgen/render.py, cache_for): a later renderer loads
them instead of compiling, renders the same text, and a damaged, missing or unwritable cache costs a
compile, never a render."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jinja2.bccache import bc_magic
from jinja2.sandbox import SandboxedEnvironment

from ldiv_db.sqlgen.render import TEMPLATE_CACHE_ENV as ENV
from ldiv_db.sqlgen.render import Ident, Renderer, TableRef, cache_for

NAME = "release/aggregate.sql"
CTX: dict[str, Any] = {
    "target": TableRef("agg"),
    "output": TableRef("out", "main"),
    "group_column": Ident("group id"),
    "qi": [Ident("age"), Ident('zip"code')],
    "sa": [Ident("disease")],
    "klass": None,
}


def _no_compile(r: Renderer) -> Renderer:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("compiled although the cache holds the template")

    r.env.compile = refuse  # type: ignore[method-assign,assignment]
    return r


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> str:
    """The text the template renders to with no cache at all."""
    monkeypatch.setenv(ENV, "off")
    r = Renderer()
    assert r.env.bytecode_cache is None
    return r.render(NAME, **CTX).sql


def test_a_later_renderer_loads_the_compiled_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: str
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    assert Renderer().render(NAME, **CTX).sql == fresh
    entries = list(tmp_path.glob("*/__jinja2_*.cache"))
    assert len(entries) == 1  # one template compiled, one entry
    assert _no_compile(Renderer()).render(NAME, **CTX).sql == fresh


def test_damaged_entries_are_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: str
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    Renderer().render(NAME, **CTX)
    (entry,) = tmp_path.glob("*/__jinja2_*.cache")
    for damaged in (b"", bc_magic, bc_magic + b"\x80\x04garbage", b"not a cache entry at all"):
        entry.write_bytes(damaged)
        assert Renderer().render(NAME, **CTX).sql == fresh
    assert entry.read_bytes().startswith(bc_magic) and len(entry.read_bytes()) > 100  # written again


def test_a_cache_that_cannot_be_written_renders_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv(ENV, str(blocker / "templates"))  # its folder cannot be made
    r = Renderer()
    assert r.env.bytecode_cache is None
    assert r.render(NAME, **CTX).sql == fresh
    monkeypatch.setenv(ENV, str(tmp_path / "gone"))
    r = Renderer()
    assert r.env.bytecode_cache is not None
    for p in (tmp_path / "gone").glob("*"):  # the folder removed after it was made: the write fails
        p.rmdir()
    assert r.render(NAME, **CTX).sql == fresh


def test_other_options_use_another_folder_and_a_process_finds_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path))
    here = Renderer().env.bytecode_cache
    other = cache_for(SandboxedEnvironment, {"trim_blocks": False}, {})
    assert here is not None and other is not None
    assert here.directory != other.directory  # type: ignore[attr-defined]
    code = "from ldiv_db.sqlgen.render import Renderer; print(Renderer().env.bytecode_cache.directory)"
    out = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, ENV: str(tmp_path)}, capture_output=True, text=True
    )
    assert out.stdout.strip() == here.directory  # type: ignore[attr-defined]


def test_templates_of_another_folder_are_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, str(tmp_path / "cache"))
    (tmp_path / "t.sql").write_text("-- purpose: test\n-- params: none\n-- returns: x\nSELECT 1\n")
    r = Renderer(tmp_path)
    assert r.env.bytecode_cache is None
    assert r.render("t.sql").sql.endswith("SELECT 1")


def test_no_home_directory_renders_as_before(monkeypatch: pytest.MonkeyPatch, fresh: str) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    r = Renderer()
    assert r.env.bytecode_cache is None
    assert r.render(NAME, **CTX).sql == fresh


def test_a_folder_others_may_write_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # compiled code read from the cache is run, so a folder another user could write into is no cache
    monkeypatch.setenv(ENV, str(tmp_path))
    first = cache_for(SandboxedEnvironment, {}, {})
    assert first is not None
    folder = Path(first.directory)  # type: ignore[attr-defined]
    folder.chmod(0o777)
    assert cache_for(SandboxedEnvironment, {}, {}) is None
    folder.chmod(0o700)
    assert cache_for(SandboxedEnvironment, {}, {}) is not None
