"""The docs' examples as a test sees them: every fenced ``bash``/``sh``/``console``/``python`` block of
README.md and docs/**/*.md, with the markers of docs/README-for-writers.md, and the runner that executes
one page's blocks in order in a fresh directory that looks like the checkout after ``make demo``
(``.venv`` and ``fixtures/`` beside the page's own files; ``.venv/bin`` first on PATH)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN_LANGS = {"bash", "sh", "console", "python"}
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_MARK = re.compile(r"<!--\s*docs-test:\s*(.*?)\s*-->")
TIMEOUT = 600  # seconds per block
# the writers' page shows markers as examples; the reference pages and the benchmarks page are generated
# at build time (docs/hooks.py) from the code and bench/README.md
NOT_EXAMPLES = {"docs/README-for-writers.md", "docs/benchmarks.md"} | {
    f"docs/reference/{p.name}" for p in (ROOT / "docs" / "reference").glob("*.md")
}


@dataclass
class Block:
    page: str  # path relative to the checkout
    line: int  # the fence's line, 1-based
    lang: str
    code: str
    skip: str | None = None  # the declared reason it is not run
    exit: int = 0  # the exit status the block ends with

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass
class Page:
    path: str
    requires: str | None  # None (default suite), "postgres" or "spark"
    blocks: list[Block]


def pages() -> list[Page]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    out = [parse(f) for f in files if f.relative_to(ROOT).as_posix() not in NOT_EXAMPLES]
    return [p for p in out if p.blocks]


def parse(path: Path) -> Page:
    return parse_file(path, path.relative_to(ROOT).as_posix())


def parse_file(path: Path, rel: str) -> Page:
    lines = path.read_text(encoding="utf-8").splitlines()
    requires = None
    blocks: list[Block] = []
    pending: list[str] = []  # markers since the last block
    i = 0
    while i < len(lines):
        line = lines[i]
        for m in _MARK.finditer(line):
            word = m.group(1)
            if word.startswith("page requires "):
                requires = word.split()[-1]
            else:
                pending.append(word)
        fence = _FENCE.match(line)
        if not fence:
            if line.strip() and not _MARK.search(line):
                pending = []  # a marker belongs to the block right after it
            i += 1
            continue
        indent, ticks, lang = fence.groups()
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(ticks):
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        if lang in RUN_LANGS:
            block = Block(rel, i - len(body), lang, "\n".join(body) + "\n")
            for word in pending:
                if word.startswith("skip"):
                    block.skip = word[4:].strip(" :") or "declared"
                elif word.startswith("exit "):
                    block.exit = int(word.split()[1])
                else:
                    raise ValueError(f"{rel}:{block.line}: unknown docs-test marker {word!r}")
            blocks.append(block)
        pending = []
        i += 1
    return Page(rel, requires, blocks)


def script(block: Block) -> str:
    if block.lang == "console":  # the commands are the lines after a "$ " prompt
        return "\n".join(line[2:] for line in block.code.splitlines() if line.startswith("$ ")) + "\n"
    return block.code


def workdir(tmp: Path) -> dict[str, str]:
    """``tmp`` set up like the checkout after ``make demo``; returns the environment for the blocks."""
    if not (tmp / "fixtures").exists():
        (tmp / "fixtures").symlink_to(ROOT / "fixtures")
    venv = Path(sys.prefix)
    if (tmp / ".venv").exists():
        pass
    elif (venv / "bin" / "ldiv").exists():
        (tmp / ".venv").symlink_to(venv)
    else:  # not run from a venv: stand-ins that call this interpreter
        bin_dir = tmp / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        for name, call in (("python", ""), ("ldiv", "-m ldiv_db.cli.main")):
            exe = bin_dir / name
            exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" {call} "$@"\n')
            exe.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{tmp / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(tmp)
    env.pop("PYTHONSTARTUP", None)
    return env


def run(page: Page, tmp: Path, env: dict[str, str]) -> tuple[list[Block], list[Block]]:
    """Run the page's blocks in order; returns (run, skipped by declaration). A block that ends with
    another status than declared fails the test with its output."""
    done: list[Block] = []
    skipped: list[Block] = []
    for n, block in enumerate(page.blocks, 1):
        if block.skip is not None:
            skipped.append(block)
            continue
        if block.lang == "python":
            file = tmp / f"_block{n}.py"
            file.write_text(block.code, encoding="utf-8")
            cmd = [str(tmp / ".venv" / "bin" / "python"), str(file)]
        else:
            file = tmp / f"_block{n}.sh"
            file.write_text(script(block), encoding="utf-8")
            cmd = ["bash", "-e", "-o", "pipefail", str(file)]
        proc = subprocess.run(
            cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
        if proc.returncode != block.exit:
            raise AssertionError(
                f"{block.where}: exit {proc.returncode}, expected {block.exit}\n--- block\n{block.code}"
                f"--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"
            )
        done.append(block)
    return done, skipped
