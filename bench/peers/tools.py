"""The peer tools of the peers suite (bench/peers/suite.py): whether each can run here (and, if not, the
message naming what provides it), preparing them on request, and running ARX's workloads in one JVM
(bench/peers/ArxPeers.java) with its output parsed.

ARX itself is not built by this project (decision 0027, "Amended"): the user names the jars of an ARX
3.9.2 they have (its library jar and its dependencies) in ``ARX_CLASSPATH``; ``--build`` compiles the
project's own two programs against them into ``ARX_CACHE``."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.peers.data import CACHE as DATA_CACHE
from bench.peers.data import ROOT
from bench.peers.ours import Dataset

HERE = Path(__file__).resolve().parent
ARX_CACHE = Path(os.environ.get("ARX_CACHE", Path.home() / ".cache" / "ldiv_db" / "arx"))
PEERS_VENV = DATA_CACHE / "venv"
PEERS_PYTHON = PEERS_VENV / "bin" / "python"
PINS_FILE = "ldiv-peers-pins.txt"  # in the venv: the pins it was made from
BUILD = "python -m bench.peers --build"
CLASSPATH_ENV = "ARX_CLASSPATH"  # ARX 3.9.2's library jar and its dependency jars, os.pathsep-separated
PROGRAMS = {"figures": "ArxFigures.java", "peers": "ArxPeers.java"}  # stamp key -> source


@dataclass(frozen=True)
class Workload:
    key: str
    label: str
    kind: str  # optimal, check or anjana
    dataset: str  # adult, million or ihis (bench/peers/suite.py datasets)
    model: str  # distinct, entropy or recursive
    l: int
    c: float = 0.0
    limit: float = 0.05
    large: bool = False  # run with --large only


def digest(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256, as the build stamps each program."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def arx_unavailable(cache: Path = ARX_CACHE, program: Path = HERE / "ArxPeers.java") -> str | None:
    """Why ARX cannot run here, or None."""
    if shutil.which("java") is None:
        return "java not found: the reference tool needs Java 17 (apt-get install openjdk-17-jdk-headless)"
    stamp = cache / "stamp"
    if not stamp.exists() or not (cache / "figures" / "ArxPeers.class").exists():
        return (
            f"ARX's programs are not built in {cache}: set {CLASSPATH_ENV} to ARX 3.9.2's jars, run {BUILD}"
        )
    if f"peers:{digest(program)}" not in stamp.read_text(encoding="utf-8"):
        return f"{program.name} changed since the build in {cache}: run {BUILD}"
    return None


def peer_pins(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The ``peers`` extra of pyproject.toml: pycanon and anjana, pinned."""
    with pyproject.open("rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    pins: list[str] = extras["peers"]
    return pins


def python_peers_unavailable(venv: Path = PEERS_VENV, pins: list[str] | None = None) -> str | None:
    """Why pycanon and anjana cannot run here, or None."""
    marker = venv / PINS_FILE
    if not (venv / "bin" / "python").exists() or not marker.exists():
        return f"pycanon and anjana are not installed in {venv}: run {BUILD}"
    if marker.read_text(encoding="utf-8").split() != sorted(pins if pins is not None else peer_pins()):
        return f"the peers extra of pyproject.toml changed since {venv} was made: run {BUILD}"
    return None


def build_arx_programs(cache: Path = ARX_CACHE, classpath: str | None = None) -> str:
    """Compile the project's programs (ArxFigures, ArxPeers) against the ARX jars of ``classpath`` (default
    ``$ARX_CLASSPATH``) into ``cache``; a line saying what was done, "skip: ..." when it cannot be."""
    classpath = classpath if classpath is not None else os.environ.get(CLASSPATH_ENV, "")
    jars = [j for j in classpath.split(os.pathsep) if j]
    if shutil.which("javac") is None:
        return "skip: javac not found (the reference tool needs Java 17: apt-get install openjdk-17-jdk-headless)"
    if not jars:
        return f"skip: {CLASSPATH_ENV} is not set (ARX 3.9.2's library jar and its dependency jars)"
    absent = [j for j in jars if not Path(j).exists()]
    if absent:
        return f"skip: {CLASSPATH_ENV} names files that do not exist: {', '.join(absent)}"
    stamp = " ".join(
        [f"classpath:{hashlib.sha256(classpath.encode()).hexdigest()[:16]}"]
        + [f"{key}:{digest(HERE / name)}" for key, name in PROGRAMS.items()]
    )
    if (cache / "stamp").exists() and (cache / "stamp").read_text(encoding="utf-8").strip() == stamp:
        return f"ok: ARX's programs already built in {cache}"
    figures = cache / "figures"
    shutil.rmtree(figures, ignore_errors=True)
    figures.mkdir(parents=True)
    run = subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(figures), "-cp", classpath,
         *(str(HERE / name) for name in PROGRAMS.values())],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if run.returncode != 0:
        return f"error: the programs did not compile against {CLASSPATH_ENV}: {run.stderr.strip()[-800:]}"
    (cache / "classpath.txt").write_text(classpath + "\n", encoding="utf-8")
    (cache / "stamp").write_text(stamp + "\n", encoding="utf-8")
    return f"ok: ARX's programs built in {cache}"


def build() -> None:
    """The project's ARX programs against the user's ARX (``ARX_CLASSPATH``) and a venv of its own for
    pycanon and anjana (they pin numpy and pandas below ldiv_db's)."""
    print(build_arx_programs(), flush=True)
    pins = sorted(peer_pins())
    if python_peers_unavailable(PEERS_VENV, pins) is None:
        print(f"ok: pycanon and anjana already installed in {PEERS_VENV}")
        return
    shutil.rmtree(PEERS_VENV, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(PEERS_VENV)], check=True)
    subprocess.run([str(PEERS_PYTHON), "-m", "pip", "install", "--quiet", *pins], check=True)
    (PEERS_VENV / PINS_FILE).write_text("\n".join(pins) + "\n", encoding="utf-8")
    print(f"ok: {', '.join(pins)} installed in {PEERS_VENV}")


def spec_line(w: Workload, ds: Dataset, repeat: int) -> str:
    """One line of ArxPeers' spec (its header): kind name csv prefix qis sa model l c limit warm-up repeat.
    The IHIS-shaped runs take seconds to minutes each: no warm-up run beyond the repeats."""
    warmup = 0 if w.dataset == "ihis" else 1
    fields = [w.kind, w.key, str(ds.csv), ds.prefix, ",".join(ds.qi), ds.sa, w.model, str(w.l), str(w.c),
              str(w.limit), str(warmup), str(repeat)]  # fmt: skip
    if any("\t" in f or "\n" in f for f in fields):
        raise ValueError(f"a field of workload {w.key} holds a tab or a newline")
    return "\t".join(fields)


def parse_arx(stdout: str) -> dict[str, Any]:
    """ArxPeers' JSON lines by workload name; other lines (ARX's own warnings) are left out."""
    out: dict[str, Any] = {}
    for line in stdout.splitlines():
        if line.startswith("{"):
            figures = json.loads(line)
            out[figures["name"]] = figures
    return out


def run_arx(
    workloads: list[Workload], sets: dict[str, Dataset], repeat: int, timeout: float, cache: Path = ARX_CACHE
) -> dict[str, Any]:
    """The workloads in one JVM, in the order given, except the large ones: each in a JVM of its own,
    stopped after ``timeout`` seconds (then its figures say so). Figures by workload key."""
    out: dict[str, Any] = {}
    small = [w for w in workloads if not w.large]
    if small:
        out.update(_jvm(small, sets, repeat, None, cache))
    for w in workloads:
        if w.large:
            got = _jvm([w], sets, repeat, timeout, cache)
            out[w.key] = got.get(w.key, {"name": w.key, "unfinished_after": timeout})
    return out


def _jvm(
    workloads: list[Workload], sets: dict[str, Dataset], repeat: int, timeout: float | None, cache: Path
) -> dict[str, Any]:
    cp = (cache / "classpath.txt").read_text(encoding="utf-8").strip() + os.pathsep + str(cache / "figures")
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8") as spec:
        spec.write("".join(spec_line(w, sets[w.dataset], repeat) + "\n" for w in workloads))
    lines: list[str] = []
    timer = None
    try:
        # Streamed: a workload's line is printed as soon as ARX has done it (the large ones take minutes);
        # stderr into a file, so that a chatty stderr cannot block the JVM while stdout is read.
        with tempfile.TemporaryFile("w+", encoding="utf-8") as errors, subprocess.Popen(
            ["java", "-Xmx4g", "-cp", cp, "ArxPeers", spec.name], stdout=subprocess.PIPE, stderr=errors, text=True
        ) as proc:  # fmt: skip
            if timeout is not None:
                timer = threading.Timer(timeout, proc.kill)
                timer.start()
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                if line.startswith("{"):
                    print(f"ARX: {line.strip()}", flush=True)
            proc.wait()
            errors.seek(0)
            err = errors.read()
    finally:
        if timer is not None:
            timer.cancel()
        os.unlink(spec.name)
    if proc.returncode != 0:
        print(
            f"ARX stopped ({proc.returncode}; after {timeout} s when killed): {err.strip()[-800:]}",
            flush=True,
        )
    return parse_arx("".join(lines))
