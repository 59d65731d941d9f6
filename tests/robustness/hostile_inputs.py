"""Hostile command lines and job files for every ``ldiv`` subcommand, derived from the parser.

The subcommands, their flags, which flags are required, their choices and types are read from
``ldiv_db.cli.main.build_parser()``; the algorithm option names from its "algorithm options" group and the
model option names from its "privacy model" group. A new flag or option is therefore exercised without
changing this file. Values are drawn from pools: valid ones (so that a command gets deep into the
program) and hostile ones (wrong types, out-of-range numbers, unknown names, quotes, unicode, empty,
very long strings, repeated keys). Placeholders such as ``@DB@`` are replaced by per-example paths.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from fixtures import census
from fixtures.hostile import HOSTILE_QI, HOSTILE_SA
from ldiv_db.cli.main import build_parser
from ldiv_db.privacy import MODELS

from . import catalog_state as cs

Path_ = tuple[str, ...]

# ---------------------------------------------------------------------------- the parser, introspected


def leaf_parsers(parser: argparse.ArgumentParser, path: Path_ = ()) -> dict[Path_, argparse.ArgumentParser]:
    """Every runnable subcommand (``("hierarchy", "import")`` ...) and its parser."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return {path: parser}
    out: dict[Path_, argparse.ArgumentParser] = {}
    for action in subs:
        for name, sub in action.choices.items():
            out.update(leaf_parsers(sub, (*path, name)))
    return out


def _group_dests(parser: argparse.ArgumentParser, title: str) -> list[str]:
    for group in parser._action_groups:
        if group.title == title:
            return [a.dest for a in group._group_actions]
    return []


PARSER = build_parser(whole=True)
LEAVES = leaf_parsers(PARSER)
ANONYMIZE = LEAVES[("anonymize",)]
ALGORITHMS: list[str] = next(a.choices for a in ANONYMIZE._actions if a.dest == "algorithm")  # type: ignore[assignment]
ALGORITHM_OPTIONS = _group_dests(ANONYMIZE, "algorithm options")
MODEL_OPTIONS = _group_dests(ANONYMIZE, "privacy model")

# Subcommands that write; every other one is a read and must leave the file byte-identical.
WRITERS: frozenset[Path_] = frozenset(
    {
        ("load",),
        ("hierarchy", "import"),
        ("hierarchy", "build"),
        ("hierarchy", "import-categories"),
        ("anonymize",),
        ("run",),
        ("compare",),
        ("release", "append"),
        ("release", "publish"),
        ("sql", "install"),
    }
)

# ---------------------------------------------------------------------------- value pools

CENSUS_COLS = list(census.COLUMNS)
HOSTILE_STRINGS = [
    "",
    " ",
    "\t",
    "'",
    '"',
    ";",
    "'; DROP TABLE census; --",
    '"; DROP TABLE payroll; --',
    "census; DROP TABLE payroll",
    "ünï",
    "\u202etxt",
    "日本",
    "NULL",
    "None",
    "*",
    "%",
    "\\",
    "-",
    "x" * 5000,
    "a,b,,c",
    "=",
    "==",
    ",",
]
NUMBERS = [
    "-1",
    "0",
    "1",
    "2",
    "3",
    "500",
    "1e999",
    "-1e999",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "1e-320",
    "2.7",
    "0.5",
    "1/3",
    "1/0",
    "99999999999999999999999",
    "-0",
    "0x10",
    "auto",
    " 2 ",
    "2,3",
    "3,2,1",
    "true",
]
TABLES_VALID = [cs.SOURCE]
TABLES_HOSTILE = [
    cs.PLAIN,
    cs.HOSTILE,
    cs.RELEASE,
    cs.STREAM,
    f"{cs.STREAM}_qid",
    cs.STREAM_SOURCE,
    cs.BATCHES[0],
    "nope",
    "CENSUS",
    "main.census",
    "ldiv.run",
    "ldiv.release",
    "ldiv.hierarchy",
    "ldiv.schema_migration",
    'ldiv."retained:main.stream"',
    "ldiv_work.x",
    "nosuchschema.t",
    "system.main.t",
    '"census"',
    'x"y',
    '"q""x"',
    "it's",
    "fresh_out",
]
COLUMNS_HOSTILE = [
    "nope",
    "AGE",
    "age,age",
    "age,",
    ",",
    "age;sex",
    "occupation",
    "rowid",
    "group_id",
    *HOSTILE_QI,
    HOSTILE_SA,
]
FILES = ["@CSV@", "@BADCSV@", "@EMPTY@", "@DIR@", "@MISSING@", "@DB@", "@HIER@", "@CATS@", "@BINARY@"]


def _key_values(keys: Sequence[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(
        st.sampled_from([*keys, "nope", "AGE", "", " "]), st.sampled_from([*NUMBERS, *HOSTILE_STRINGS[:8]])
    )
    return st.lists(pair, min_size=1, max_size=4).map(lambda kv: ",".join(f"{k}={v}" for k, v in kv))


def _column_list(valid: Sequence[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from([*valid, *COLUMNS_HOSTILE]), min_size=1, max_size=4).map(",".join)


SHORT_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), whitelist_characters="'\";,= \t"),
    max_size=12,
)
GENERIC = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(HOSTILE_STRINGS),
    _key_values(CENSUS_COLS),
    st.sampled_from(FILES),
    SHORT_TEXT,
)

# Valid values per subcommand and dest (the rest of the pool is hostile).
VALID: dict[Path_ | None, dict[str, list[str]]] = {
    None: {
        "db": ["@DB@", "@DB@", "@DB@", "@PLAINDB@"],
        "table": TABLES_VALID,
        "qi": ["age,sex", "age,sex,race,education", "sex,race"],
        "sa": ["occupation"],
        "column": ["age"],
        "file": ["@CSV@"],
        "output": ["fresh_out", cs.RELEASE],
        "l": ["2", "3"],
        "model": list(MODELS),
    },
    ("release", "append"): {"release": [cs.STREAM], "from_table": list(cs.BATCHES)},
    ("release", "history"): {"release": [cs.STREAM]},
    ("metrics",): {"source": [cs.SOURCE], "release": [cs.RELEASE], "qi": ["age,sex"]},
    ("hierarchy", "import"): {"file": ["@HIER@"]},
    ("hierarchy", "build"): {"intervals": ["5,10,20"]},
    ("hierarchy", "import-categories"): {"column": ["occupation"], "file": ["@CATS@"]},
    ("load",): {"table": ["fresh_tbl", cs.PLAIN]},
    ("attack", "similarity"): {"table": [cs.RELEASE]},
    ("run",): {"job": ["@JOB@"]},
}


def _valid(path: Path_, dest: str) -> list[str]:
    return VALID.get(path, {}).get(dest) or VALID[None].get(dest, [])


def _hostile_pool(action: argparse.Action) -> st.SearchStrategy[str]:
    dest = action.dest
    if dest == "db":
        return st.sampled_from(["@DIR@", "@MISSING@", "@CSV@", "@EMPTY@", "@BINARY@"])
    if dest in ("file", "job"):
        return st.sampled_from(FILES)
    if "table" in dest or dest in ("source", "release", "output"):
        return st.one_of(st.sampled_from(TABLES_HOSTILE), st.sampled_from(HOSTILE_STRINGS))
    if dest in ("qi", "sa", "column") or dest.endswith("_column") or dest.endswith("_columns"):
        return st.one_of(_column_list(CENSUS_COLS), st.sampled_from(HOSTILE_STRINGS))
    if dest == "option":
        return _key_values([*ALGORITHM_OPTIONS, *MODEL_OPTIONS, "replace", "output"])
    if action.choices:
        return st.one_of(
            st.sampled_from([str(c).upper() for c in action.choices]), st.sampled_from(HOSTILE_STRINGS)
        )
    if action.type in (int, float):
        return st.sampled_from(NUMBERS)
    return GENERIC


def flag_value(path: Path_, action: argparse.Action, hostile: bool) -> st.SearchStrategy[str]:
    """A valid value for the flag where one is known (and ``hostile`` is false), else a hostile one."""
    valid = _valid(path, action.dest)
    if action.choices and not valid:
        valid = [str(c) for c in action.choices]
    if valid and not hostile:
        return st.sampled_from(valid)
    return _hostile_pool(action)


def _flag_actions(parser: argparse.ArgumentParser) -> tuple[list[argparse.Action], list[argparse.Action]]:
    positional, optional = [], []
    for a in parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        (optional if a.option_strings else positional).append(a)
    return positional, optional


@st.composite
def argv_for(draw: st.DrawFn, path: Path_) -> list[str]:
    """An argument list for one subcommand: positionals, required flags (each left out now and then),
    and up to four optional flags. Most values are valid; one or two (chosen per example) are hostile,
    so that a command gets past the first check and meets the hostile value deep inside."""
    parser = LEAVES[path]
    positional, optional = _flag_actions(parser)
    required = [a for a in optional if a.required]
    others = [a for a in optional if not a.required and a.dest not in ("json", "quiet")]
    chosen = [a for a in required if draw(st.integers(0, 19)) > 0]
    if others:
        chosen += draw(st.lists(st.sampled_from(others), max_size=4))
    slots = [*positional, *[a for a in chosen if a.nargs != 0]]
    hostile = draw(st.sets(st.integers(0, max(len(slots) - 1, 0)), max_size=2))
    values = iter(draw(flag_value(path, a, i in hostile)) for i, a in enumerate(slots))
    argv = [*path, *(next(values) for _ in positional)]
    for a in chosen:
        argv.append(draw(st.sampled_from(a.option_strings)))
        if a.nargs != 0:
            argv.append(next(values))
    if draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "--L", "-x", "--", "extra"])))
    if "json" in {a.dest for a in optional} and draw(st.booleans()):
        argv.append("--json")
    if "quiet" in {a.dest for a in optional}:
        argv.append("--quiet")
    return argv


# ---------------------------------------------------------------------------- a systematic sweep

SWEEP_VALUES = [
    "-1",
    "0",
    "1e999",
    "nan",
    "2.7",
    "nope",
    "AGE",
    "age=1e308,sex=1e308",
    "",
    "'",
    "x=1",
    "age=1,age=2",
]
SWEEP_BASE = {
    ("check",): ["check", "@DB@", "--table", "census", "--qi", "age,sex", "--sa", "occupation"],
    ("metrics",): [
        "metrics",
        "@DB@",
        "--source",
        "census",
        "--release",
        "census_rel",
        "--qi",
        "age,sex",
        "--sa",
        "occupation",
    ],
    ("suggest-l",): ["suggest-l", "@DB@", "--table", "census", "--sa", "occupation"],
    ("hierarchy", "show"): ["hierarchy", "show", "@DB@", "--table", "census"],
    ("hierarchy", "build"): [
        "hierarchy",
        "build",
        "@DB@",
        "--table",
        "census",
        "--column",
        "age",
        "--intervals",
        "5,10",
    ],
    ("load",): ["load", "@DB@", "@CSV@", "--table", "fresh"],
    ("attack", "similarity"): [
        "attack",
        "similarity",
        "@DB@",
        "--table",
        "census_rel",
        "--qi",
        "age,sex",
        "--sa",
        "occupation",
    ],
    ("release", "append"): [
        "release",
        "append",
        "@DB@",
        "--release",
        "stream",
        "--from",
        "batch1",
        "--quiet",
    ],
}
ALGORITHM_BASE = {
    "full-domain": ["--levels", "age=3,sex=0", "--suppression-limit", "0.1"],
    "decomposition": ["--sa", "occupation,workclass", "--l", "3,2"],
    "topdown": ["--alpha", "0.5"],
}


def _anonymize_base(flag_help: str, dest: str) -> list[str]:
    algo = flag_help.split(":")[0] if ":" in flag_help else "bsgi"
    if dest in ("alpha", "categories", "category_weights", "beta", "entropy_over"):
        algo = "topdown"
    if dest in ("thresholds", "sensitivity"):
        algo = "lplus"
    algo = algo if algo in ALGORITHM_BASE or algo in ("bsgi", "mondrian", "lplus", "tp") else "bsgi"
    argv = ["anonymize", "@DB@", "--table", "census", "--qi", "age,sex", "--sa", "occupation", "--l", "3"]
    return [
        *argv,
        "--algorithm",
        algo,
        "--output",
        "fresh_out",
        "--quiet",
        "--no-kl",
        *ALGORITHM_BASE.get(algo, []),
    ]


def sweep_cases() -> list[list[str]]:
    """Each flag of each command (from the parser) with each value of a small hostile list, the rest of
    the command line valid: a systematic complement of the random examples."""
    cases = []
    for path, parser in sorted(LEAVES.items()):
        if path not in SWEEP_BASE and path != ("anonymize",):
            continue
        for action in _flag_actions(parser)[1]:
            if action.nargs == 0:
                continue
            base = SWEEP_BASE.get(path) or _anonymize_base(action.help or "", action.dest)
            cases += [[*base, action.option_strings[0], value] for value in SWEEP_VALUES]
    return cases


# ---------------------------------------------------------------------------- TOML job files


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def toml_document(doc: Mapping[str, Any], duplicate: str | None = None) -> str:
    """A TOML text: top-level scalars first, then one [table] per mapping (nested mappings inline);
    ``duplicate`` repeats that top-level key (invalid TOML)."""
    lines: list[str] = []
    tables: list[tuple[str, Mapping[str, Any]]] = []
    for k, v in doc.items():
        if isinstance(v, Mapping):
            tables.append((json.dumps(k), v))
        else:
            lines.append(f"{json.dumps(k)} = {toml_value(v)}")
            if k == duplicate:
                lines.append(f"{json.dumps(k)} = {toml_value(v)}")
    for name, body in tables:
        lines.append(f"[{name}]")
        lines += [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in body.items()]
    return "\n".join(lines) + "\n"


WRONG_TYPES = st.one_of(
    st.sampled_from([0, -1, 2**40, 2.7, -0.0, float("nan"), float("inf"), 1e308, True, False]),
    st.sampled_from(["", "false", "true", "2", "nope", "age", "'", '"; DROP TABLE payroll; --']),
    st.lists(st.sampled_from([1, "age", 2.5, True]), max_size=3),
    st.dictionaries(st.sampled_from(["age", "x", "l"]), st.sampled_from([1, "a", 0.5]), max_size=2),
)


def _options(keys: Sequence[str]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(NUMBERS),
        st.sampled_from([1, 0, -1, 2.5, 1e308, float("nan"), True, False]),
        st.dictionaries(st.sampled_from([*CENSUS_COLS, "AGE", "nope"]), st.integers(-1, 9), max_size=3),
        st.sampled_from(HOSTILE_STRINGS[:12]),
        _key_values(CENSUS_COLS),
    )


def _job_slots() -> list[tuple[str, ...]]:
    """Every key a job file may hold, as a path (from the parser: anonymize flags, algorithm and model
    options), plus unknown keys."""
    anon = [a.dest for a in _flag_actions(ANONYMIZE)[1] if a.dest not in ALGORITHM_OPTIONS + MODEL_OPTIONS]
    return [
        ("database",),
        ("source", "table"),
        ("source", "sep"),
        ("source", "load"),
        ("source", "attach"),
        ("hierarchies", "age"),
        ("hierarchies", "nope"),
        *[("anonymize", k) for k in [*anon, "kl", "qi", "sa", "l", "output", "unknown_key", "L"]],
        *[("anonymize", "options", k) for k in [*ALGORITHM_OPTIONS, "nope", "Levels", "replace"]],
        *[("anonymize", "model_options", k) for k in [*MODEL_OPTIONS, "weights", "nope"]],
    ]


JOB_SLOTS = _job_slots()
JOB_VALUES = st.one_of(WRONG_TYPES, _options(CENSUS_COLS), st.sampled_from([*TABLES_HOSTILE, *FILES]))


@st.composite
def job_document(draw: st.DrawFn) -> tuple[str, str | None]:
    """A TOML job file (and the source table it reloads, if any): a valid job in the documented layout
    for a drawn algorithm, then up to three corruptions — a key (from the parser's flags and options, or
    unknown) set to a wrong type, an out-of-range number, a hostile name or file; a key deleted; the
    ``database`` key repeated (invalid TOML)."""
    doc: dict[str, Any] = {
        "database": "@DB@",
        "source": {"table": cs.SOURCE},
        "anonymize": {
            "qi": draw(st.sampled_from([["age", "sex"], ["age", "sex", "race", "education"]])),
            "sa": "occupation",
            "algorithm": draw(st.sampled_from(ALGORITHMS)),
            "l": draw(st.sampled_from([2, 3])),
            "output": draw(st.sampled_from(["job_out", cs.RELEASE])),
        },
    }
    duplicate = None
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.integers(0, 19))
        if what == 0:
            duplicate = "database"
            continue
        slot = draw(st.sampled_from(JOB_SLOTS))
        node = doc
        for key in slot[:-1]:
            node = node.setdefault(key, {})
            if not isinstance(node, dict):
                break
        else:
            if what == 1:
                node.pop(slot[-1], None)
            else:
                node[slot[-1]] = draw(JOB_VALUES)
    source = doc.get("source")
    loaded = source.get("table") if isinstance(source, dict) and "load" in source else None
    return toml_document(doc, duplicate), loaded if isinstance(loaded, str) else None
