"""Hostile command lines and job files for every ``ldiv`` subcommand, derived from the parser.

The subcommands, their flags, which flags are required, their choices and types are read from
``ldiv_db.cli.build_parser()``; the algorithm option names from its "algorithm options" group and the
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
from ldiv_db.cli import build_parser

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


PARSER = build_parser()
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
        ("release", "append"),
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
        "db": ["@DB@"],
        "table": TABLES_VALID,
        "qi": ["age,sex", "age,sex,race,education", "sex,race"],
        "sa": ["occupation"],
        "column": ["age"],
        "file": ["@CSV@"],
        "output": ["fresh_out", cs.RELEASE],
        "l": ["2", "3"],
        "model": ["distinct"],
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


@st.composite
def flag_value(draw: st.DrawFn, path: Path_, action: argparse.Action) -> str:
    valid = _valid(path, action.dest)
    if action.choices and not valid:
        valid = [str(c) for c in action.choices]
    if valid and draw(st.integers(0, 9)) < 7:
        return draw(st.sampled_from(valid))
    return draw(_hostile_pool(action))


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
    and a few optional flags, each with a valid or hostile value."""
    parser = LEAVES[path]
    positional, optional = _flag_actions(parser)
    argv = list(path)
    for a in positional:
        argv.append(draw(flag_value(path, a)))
    required = [a for a in optional if a.required]
    others = [a for a in optional if not a.required and a.dest not in ("json", "quiet")]
    chosen = [a for a in required if draw(st.integers(0, 19)) > 0]
    if others:
        chosen += draw(st.lists(st.sampled_from(others), max_size=4))
    for a in chosen:
        argv.append(draw(st.sampled_from(a.option_strings)))
        if a.nargs != 0:
            argv.append(draw(flag_value(path, a)))
    if draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "--L", "-x", "--", "extra"])))
    if "json" in {a.dest for a in optional} and draw(st.booleans()):
        argv.append("--json")
    if "quiet" in {a.dest for a in optional}:
        argv.append("--quiet")
    return argv


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


def _maybe_wrong(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(valid, valid, valid, WRONG_TYPES)


def _options(keys: Sequence[str]) -> st.SearchStrategy[dict[str, Any]]:
    value = st.one_of(
        st.sampled_from(NUMBERS),
        st.sampled_from([1, 0, -1, 2.5, 1e308, float("nan"), True, False]),
        st.dictionaries(st.sampled_from([*CENSUS_COLS, "AGE", "nope"]), st.integers(-1, 9), max_size=3),
        st.sampled_from(HOSTILE_STRINGS[:12]),
    )
    return st.dictionaries(st.sampled_from([*keys, "nope", "Levels"]), value, max_size=3)


@st.composite
def job_document(draw: st.DrawFn) -> tuple[str, str | None]:
    """A TOML job file (and the source table it reloads, if any): the keys of the documented job
    layout, the anonymize keys and options taken from the parser, values valid or of a wrong type,
    unknown keys, repeated keys."""
    algorithm = draw(st.sampled_from(ALGORITHMS))
    anonymize: dict[str, Any] = {
        "qi": draw(
            _maybe_wrong(st.sampled_from([["age", "sex"], ["age", "sex", "race", "education"], "age,sex"]))
        ),
        "sa": draw(_maybe_wrong(st.sampled_from(["occupation", ["occupation", "workclass"]]))),
        "algorithm": draw(_maybe_wrong(st.just(algorithm))),
        "l": draw(_maybe_wrong(st.sampled_from([2, 3, [3, 2], "auto"]))),
        "output": draw(
            _maybe_wrong(st.sampled_from(["job_out", cs.RELEASE, cs.PLAIN, cs.SOURCE, "ldiv.run", 'x"y']))
        ),
    }
    anon_keys = [
        a.dest for a in _flag_actions(ANONYMIZE)[1] if a.dest not in ALGORITHM_OPTIONS + MODEL_OPTIONS
    ]
    extra = draw(
        st.lists(st.sampled_from([*anon_keys, "kl", "keep_columns", "unknown_key", "L"]), max_size=3)
    )
    for key in extra:
        anonymize[key] = draw(WRONG_TYPES)
    if draw(st.booleans()):
        anonymize["options"] = draw(_options(ALGORITHM_OPTIONS))
    if draw(st.integers(0, 3)) == 0:
        anonymize["model_options"] = draw(_options(MODEL_OPTIONS))
    source: dict[str, Any] = {"table": draw(_maybe_wrong(st.sampled_from([cs.SOURCE, "nope", cs.PLAIN])))}
    if draw(st.integers(0, 5)) == 0:
        source["load"] = draw(st.sampled_from(FILES))
        source["sep"] = draw(_maybe_wrong(st.just(";")))
    doc: dict[str, Any] = {"database": draw(_maybe_wrong(st.just("@DB@"))), "source": source}
    if draw(st.integers(0, 3)) == 0:
        doc["hierarchies"] = draw(
            st.dictionaries(
                st.sampled_from(["age", "nope", "education"]),
                st.one_of(
                    st.just({"intervals": [5, 10, 20]}),
                    st.just("@HIER@"),
                    WRONG_TYPES,
                    st.just({"intervals": [5, "x", -1]}),
                ),
                max_size=2,
            )
        )
    doc["anonymize"] = anonymize
    if draw(st.integers(0, 9)) == 0:
        del doc[draw(st.sampled_from(sorted(doc)))]
    duplicate = "database" if draw(st.integers(0, 14)) == 0 else None
    loaded = source.get("table") if "load" in source and "source" in doc else None
    return toml_document(doc, duplicate), loaded if isinstance(loaded, str) else None
