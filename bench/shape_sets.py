"""The command sets bench.shapes times on each shape (``main``, ``models``, ``more``, ``rest``: what each
holds is in bench/shapes.py's docstring), as CLI argument lists for a table of a made shape
(:class:`bench.shape_tables.Made`), and the commands an engine cannot run, with the reason.
"""

from __future__ import annotations

from .shape_tables import Made

WIDTHS = "4,16,64,256,1048576"  # the QIs' interval hierarchies (top-down, optimal)


def _commands(made: Made, tag: str, table: str = "t", nulls: bool = False) -> dict[str, list[str]]:
    db, qis = made.db, made.qis
    flag = ["--null-as-value"] if nulls else []  # the shape with NULLs: NULL a value of its own
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    out: dict[str, list[str]] = {}
    for model, extra in (("distinct", []), ("entropy", []), ("recursive", ["--c", "3"])):
        out[f"check {model}"] = ["check", db, *base, "--model", model, "--l", "2", *extra]
    for algo in ("mondrian", "bsgi", "tp+", "decomposition", "topdown", "optimal"):
        out[f"anonymize {algo}"] = [
            "anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", algo,
            "--output", f"r_{algo.replace('+', 'p')}_{tag}_{table}",
        ]  # fmt: skip
    out["anonymize lplus"] = ["anonymize", db, *base, "--model", "lplus", "--l", "2", "--algorithm", "lplus",
                              "--output", f"r_lplus_{tag}_{table}"]  # fmt: skip
    out["metrics"] = ["metrics", db, "--source", table, "--release", f"r_mondrian_{tag}_{table}", "--qi", ",".join(qis),
                      "--sa", "s", "--l", "2"]  # fmt: skip
    out["risk"] = ["risk", db, "--table", table, "--qi", ",".join(qis), *flag]
    return out


def _model_commands(made: Made, tag: str, table: str = "t", nulls: bool = False) -> dict[str, list[str]]:
    db, qis = made.db, made.qis
    flag = ["--null-as-value"] if nulls else []
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    cats = f"{made.files}.{table}.categories"  # value;category, 1 = most sensitive
    alpha = ["--l", "2", "--alpha", "0.8", "--categories", cats]
    models = {
        "k": ["--model", "k-anonymity", "--k", "2"], "frequency": ["--model", "frequency", "--l", "2"],
        "unique-distinct": ["--model", "unique-distinct", "--l", "2"], "lplus": ["--model", "lplus", "--l", "2"],
        "t-closeness": ["--model", "t-closeness", "--t", "0.3"], "delta": ["--model", "delta-disclosure", "--delta", "3"],
        "beta": ["--model", "beta-likeness", "--beta", "2"], "entropy": ["--model", "entropy", "--l", "2"],
        "recursive": ["--model", "recursive", "--l", "2", "--c", "3"],
        "distinct-alpha": ["--model", "distinct-alpha", *alpha], "entropy-alpha": ["--model", "entropy-alpha", *alpha],
    }  # fmt: skip
    out: dict[str, list[str]] = {}
    for name in ("k", "frequency", "unique-distinct", "lplus", "t-closeness", "delta", "beta", "distinct-alpha",
                 "entropy-alpha"):  # fmt: skip
        out[f"check {name}"] = ["check", db, *base, *models[name]]
    runs = [("topdown", "t-closeness"), ("topdown", "delta"), ("topdown", "distinct-alpha"), ("topdown", "entropy-alpha"),
            ("optimal", "beta"), ("optimal", "recursive"), ("optimal", "t-closeness"), ("bsgi", "entropy"),
            ("bsgi", "unique-distinct"), ("tp", "entropy"), ("mondrian", "frequency")]  # fmt: skip
    if made.numeric:  # the ordered distance reads the SA as numbers
        models["t-closeness ordered"] = [*models["t-closeness"], "--distance", "ordered"]
        out["check t-closeness ordered"] = ["check", db, *base, *models["t-closeness ordered"]]
        runs.append(("optimal", "t-closeness ordered"))
    for algo, name in runs:
        out[f"anonymize {algo} {name}"] = ["anonymize", db, *base, "--algorithm", algo, *models[name], "--output",
                                           f"r_{algo}_{name.replace('-', '_').replace(' ', '_')}_{tag}_{table}"]  # fmt: skip
    first, second = f"r_tp_entropy_{tag}_{table}", f"r_mondrian_frequency_{tag}_{table}"
    out["suggest-l"] = ["suggest-l", db, "--table", table, "--sa", "s"]
    out["attack similarity"] = ["attack", "similarity", db, "--table", first, "--group-column", "group_id",
                                "--sa", "s", "--categories", cats]  # fmt: skip
    out["compose"] = ["compose", db, "--release", first, "--release", second]
    out["report"] = ["report", db, "--release", first, "--html", f"{made.files}.{table}.html"]
    return out


def _more_commands(made: Made, tag: str, table: str = "t", nulls: bool = False) -> dict[str, list[str]]:
    db, qis = made.db, made.qis
    flag = ["--null-as-value"] if nulls else []
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    out: dict[str, list[str]] = {}
    for algo in ("hilbert", "tp"):
        out[f"anonymize {algo}"] = ["anonymize", db, *base, "--model", "frequency", "--l", "2", "--algorithm", algo,
                                    "--output", f"r_{algo}_{tag}_{table}"]  # fmt: skip
    out["anonymize full-domain"] = [
        "anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", "full-domain",
        "--levels", ",".join("2" for _ in qis), "--suppression-limit", "1", "--allow-empty",
        "--output", f"r_full_domain_{tag}_{table}",
    ]  # fmt: skip
    # the first QI at its top (a '*' where the others keep their values): classes that each cover many
    # targets but not all, composed with two suppression releases (compose's round 22 case)
    top = f"r_fd_top_{tag}_{table}"
    out["anonymize full-domain top"] = [
        "anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", "full-domain",
        "--levels", ",".join(["5", *("0" for _ in qis[1:])]), "--suppression-limit", "1", "--allow-empty",
        "--output", top,
    ]  # fmt: skip
    out["compose covering"] = ["compose", db, "--release", f"r_hilbert_{tag}_{table}", "--release",
                               f"r_tp_{tag}_{table}", "--release", top]  # fmt: skip
    stream = f"r_stream_{tag}_{table}"
    out["stream first"] = ["anonymize", db, "--table", f"{table}_first", "--qi", ",".join(qis), "--sa", "s", *flag,
                           "--l", "2", "--algorithm", "decomposition", "--key", "id", "--output", stream]  # fmt: skip
    out["release append"] = ["release", "append", db, "--release", stream, "--from", f"{table}_next", "--key", "id"]  # fmt: skip
    # the shape's SA beside a primary SA of two values, random noise: multi-SA group forming and noise
    two = f"r_stream2_{tag}_{table}"
    out["stream two-SA first"] = ["anonymize", db, "--table", f"{table}_first", "--qi", ",".join(qis), "--sa", "p,s",
                                  *flag, "--l", "2,2", "--noise", "random", "--algorithm", "decomposition", "--key",
                                  "id", "--output", two]  # fmt: skip
    out["two-SA append"] = ["release", "append", db, "--release", two, "--from", f"{table}_next", "--key", "id"]  # fmt: skip
    # compare has no --null-as-value: on the NULL shape it refuses the NULLs, naming them
    out["compare"] = ["compare", db, "--table", table, "--qi", ",".join(qis), "--sa", "s", "--l", "2", "--html",
                      f"{made.files}.{table}.cmp.html"]  # fmt: skip
    return out


def _rest_commands(made: Made, tag: str, table: str = "t", nulls: bool = False) -> dict[str, list[str]]:
    db, qis = made.db, made.qis
    flag = ["--null-as-value"] if nulls else []
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    out: dict[str, list[str]] = {
        "load csv": ["load", db, f"{made.files}.{table}.csv", "--table", f"{table}_loaded", "--sep", ","],
        "hierarchy build": ["hierarchy", "build", db, "--table", f"{table}_loaded", "--column", qis[0],
                            "--intervals", WIDTHS],
        "hierarchy import": ["hierarchy", "import", db, "--table", f"{table}_loaded", "--column", qis[0],
                             f"{made.files}.{table}.hier.csv"],  # replaces the one built
        "hierarchy show": ["hierarchy", "show", db, "--table", f"{table}_loaded", "--column", qis[0]],
    }  # fmt: skip
    first, second = f"r_mondrian_{tag}_{table}", f"r_bsgi_{tag}_{table}"
    for algo, name in (("mondrian", first), ("bsgi", second)):
        out[f"anonymize {algo}"] = ["anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", algo,
                                    "--output", name]  # fmt: skip
    out["release publish"] = ["release", "publish", db, "--release", first]
    out["release publish beside"] = ["release", "publish", db, "--release", second, "--accept-composition"]
    out["risk release"] = ["risk", db, "--release", second]
    out["risk sampled"] = ["risk", db, "--table", table, "--qi", ",".join(qis), "--sampling-fraction", "0.1",
                           *flag]  # fmt: skip
    out["risk rows-out"] = ["risk", db, "--table", table, "--qi", ",".join(qis), "--rows-out",
                            f"risk_rows_{tag}_{table}", *flag]  # fmt: skip
    out["releases"] = ["releases", db]
    out["doctor"] = ["doctor", db]
    return out


COMMAND_SETS = {"main": _commands, "models": _model_commands, "more": _more_commands, "rest": _rest_commands}


# what a command cannot do on an engine: it is skipped there, with the reason printed
UNSUPPORTED: dict[str, dict[str, str]] = {"postgres": {}}


def skipped(made: Made, name: str) -> str | None:
    """Why the command ``name`` of a set is not run on ``made``'s engine (None: it is run)."""
    return UNSUPPORTED.get(made.engine, {}).get(name)
