"""Options declared once: name, type, range, default and help (DESIGN §4).

Every algorithm declares its options as a tuple of :class:`Option`; so does the privacy model
(:mod:`ldiv_db.privacy.spec`). From that one declaration come the ``ldiv anonymize`` flags and their
``--help`` text, the accepted ``--option KEY=VALUE`` keys, the job file's ``[anonymize.options]`` keys
and the keywords of :func:`ldiv_db.anonymize`. :func:`validate` is the one place their values are
parsed: text from the command line (``source="cli"``), typed values from a TOML job file (``"job"``) or
Python values from the API (``"api"``, which also takes the command line's text forms). Wrong types, out-of-range numbers (NaN and infinities too) and
unknown keys are :class:`~ldiv_db.errors.BadInput` naming the key, what it takes and the value.

:func:`match_names` is the one helper for every option that names something that must exist (a QI, an
SA value, a category, an option key, an alias): it refuses unknown and repeated names and lists the real
ones, with a case-insensitive "did you mean".
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from ..errors import BadInput

Source = Literal["cli", "job", "api"]
Kind = Literal["flag", "int", "number", "choice", "text", "pairs"]

MAX_INT = 2**31 - 1  # the largest integer option (counts, sizes); keeps every bound parameter an INTEGER
MAX_DENOMINATOR = 10**9  # exact numbers: at most 9 decimals (or a fraction p/q with q <= 10^9)
_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?$")
_RATIO = re.compile(r"^[+-]?\d+\s*/\s*\d+$")
_INT = re.compile(r"^[+-]?\d+$")
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def _show(x: Fraction | int) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        return str(x)
    n = int(x)
    if n >= 10**6 and n == 10 ** (len(str(n)) - 1):
        return f"10^{len(str(n)) - 1}"
    if n == MAX_INT:
        return "2^31-1"
    return str(n)


def _range_text(low: Any, high: Any, low_open: bool = False, counts: bool = True) -> str:
    if counts and high == MAX_INT and low is not None:  # errors on counts: the lower bound is what matters
        return f"of at least {_show(low)}"
    if low is not None and high is not None:
        return f"in {'(' if low_open else '['}{_show(low)}, {_show(high)}]"
    if low is not None:
        return f"{'>' if low_open else '>='} {_show(low)}"
    return f"<= {_show(high)}" if high is not None else ""


def _type_error(what: str, expected: str, value: Any, hint: str | None = None) -> BadInput:
    return BadInput(
        f"{what} must be {expected}, got {value!r} ({type(value).__name__})",
        hint or f"give {what} as {expected}",
    )


def parse_int(
    value: Any, what: str, *, low: int | None = None, high: int = MAX_INT, text: bool = False
) -> int:
    """An integer option. ``text``: the value is text (command line, a list item written as text)."""
    expected = "an integer " + _range_text(low, high)
    if isinstance(value, str) and text:
        if not _INT.match(value.strip()):
            raise BadInput(
                f"{what} must be {expected}, got {value!r}", "write the integer in digits, e.g. 12"
            )
        n = int(value.strip()[:40])
    elif isinstance(value, int) and not isinstance(value, bool):
        n = value
    else:
        raise _type_error(what, expected, value)
    if low is not None and n < low:
        raise BadInput(f"{what} must be {expected}, got {value!r}", f"give {what} {_range_text(low, high)}")
    if n > high:
        raise BadInput(
            f"{what} must be at most {_show(high)}, got {value!r}",
            f"give {what} {_range_text(low, high, counts=False)}",
        )
    return n


def exact(value: Any, what: str) -> Fraction:
    """A user number as an exact fraction (SPEC §0.3): 0.9 -> 9/10, "1/3" -> 1/3."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise BadInput(f"{what} must be a number, not {value!r}")
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise BadInput(f"{what} must be a number such as 3, 0.25 or 1/4, not {value!r}") from None


def parse_number(
    value: Any,
    what: str,
    *,
    low: Fraction | int | None = None,
    high: Fraction | int = 10**9,
    low_open: bool = False,
    text: bool = True,
) -> Fraction:
    """An exact number (SPEC §0.3: 0.9 is 9/10): an int, a finite float, a Fraction or text such as
    ``0.25``, ``1/4`` or ``3e2``; within [low, high] (``low_open``: low itself excluded). ``text``
    False (a job file's typed values): a number must be a TOML number; text only for a fraction
    (``"1/4"``), which TOML cannot write as a number."""
    expected = "a number " + _range_text(low, high, low_open)
    hint = f"exact decimals or fractions such as 0.25 or 1/4, {_range_text(low, high, low_open)}"
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction, str)):
        raise _type_error(what, expected, value, hint)
    if isinstance(value, str) and not text and not _RATIO.match(value.strip()):
        raise BadInput(
            f"{what} must be {expected}, got {value!r} (text)",
            f"write {what} = {value.strip() or 0.5} (a TOML number, without quotes; only a fraction is "
            'written as text, e.g. "1/4")',
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise BadInput(f"{what} must be {expected}, got {value!r}", hint)
    written = value.strip() if isinstance(value, str) else None
    if written is not None:
        m = _DECIMAL.match(written)
        if not (m or _RATIO.match(written)) or len(written) > 40:
            raise BadInput(f"{what} must be {expected}, got {value!r}", hint)
        if m and m.group(2) and abs(int(m.group(2))) > 30:  # 1e999: out of range before it is computed
            raise BadInput(f"{what} must be {expected}, got {value!r}", hint)
        try:
            x = Fraction(written.replace(" ", ""))
        except ZeroDivisionError:
            raise BadInput(f"{what} must be {expected}, got {value!r} (a division by zero)", hint) from None
    else:
        x = (
            value
            if isinstance(value, Fraction)
            else Fraction(str(value))
            if isinstance(value, float)
            else Fraction(value)
        )
    if (low is not None and (x < low or (low_open and x == low))) or x > high:
        raise BadInput(f"{what} must be {expected}, got {value!r}", hint)
    if x.denominator > MAX_DENOMINATOR:
        raise BadInput(f"{what} has more digits than ldiv_db computes with exactly: {value!r}", hint)
    return x


def parse_flag(value: Any, what: str, *, text: bool = False) -> bool:
    """A boolean: ``true``/``false`` (also yes/no, on/off, 1/0) as text; a real boolean elsewhere."""
    if isinstance(value, bool):
        return value
    if text and isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    expected = "true or false" + (" (a boolean, not text)" if not text and isinstance(value, str) else "")
    raise BadInput(f"{what} must be {expected}, got {value!r}", f"write {what} = true (or false)")


def did_you_mean(name: str, real: Sequence[str]) -> str:
    lowered = {r.lower(): r for r in real}
    if name.lower() in lowered:
        return f"did you mean {lowered[name.lower()]!r}? "
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return f"did you mean {lowered[close[0]]!r}? " if close else ""


def listing(real: Sequence[str], limit: int = 30) -> str:
    shown = ", ".join(repr(r) for r in list(real)[:limit])
    return shown + (f", ... ({len(real)} in all)" if len(real) > limit else "")


def match_names(
    given: Iterable[str],
    real: Sequence[str],
    what: str,
    option: str,
    *,
    real_are: str | None = None,
    case_sensitive: bool = False,
) -> dict[str, str]:
    """Map each name the user gave to the real one it names (exact spelling first, then, unless
    ``case_sensitive``, case-insensitively). Unknown names and names given twice are errors that list
    the real ones (``what``: "a QI"; ``real_are``: "the QIs are"; ``option``: "--levels")."""
    by_lower: dict[str, str] = {}
    for r in real:
        by_lower.setdefault(r.lower(), r)
    exact = set(real)
    listed = real_are or f"the {what.split(' ', 1)[-1]}s are"
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for g in given:
        hit = g if g in exact else (None if case_sensitive else by_lower.get(g.lower()))
        if hit is None:
            raise BadInput(
                f"{option} names {g!r}, which is not {what}",
                f"{did_you_mean(g, real)}{listed}: {listing(real)}",
            )
        if hit in seen:
            raise BadInput(
                f"{option} names {hit!r} twice ({seen[hit]!r} and {g!r})", f"give each one once in {option}"
            )
        seen[hit] = g
        out[g] = hit
    return out


@dataclass(frozen=True)
class Option:
    """One declared option. ``kind``: flag, int, number (exact Fraction), choice, text, or pairs (a map
    ``name=value,...`` or a list in QI order, its values of ``item`` kind within the range)."""

    name: str
    kind: Kind
    help: str
    default: Any = None
    low: Any = None
    high: Any = None
    low_open: bool = False
    choices: tuple[str, ...] = ()
    item: Literal["int", "number"] = "int"
    parser: Callable[[Any, str, bool], Any] | None = None  # a special form: (value, what, is_text) -> value
    label: str = ""  # the type as --help shows it, for a special form
    cli: str = ""  # the command-line flag when it is not the name (--category-weights for weights)

    @property
    def flag(self) -> str:
        return "--" + (self.cli or self.name.replace("_", "-"))

    def type_text(self) -> str:
        high = self.high if self.high is not None else {"int": MAX_INT, "number": 10**9}.get(self.kind)
        if self.kind == "pairs":
            high = self.high if self.high is not None else (MAX_INT if self.item == "int" else 10**9)
        rng = _range_text(self.low, high, self.low_open, counts=False)
        if self.label:
            return self.label
        if self.kind == "flag":
            return "true/false"
        if self.kind == "choice":
            return "|".join(self.choices)
        if self.kind == "text":
            return "a column name"
        if self.kind == "pairs":
            kind = "integers" if self.item == "int" else "numbers"
            return f"name=value,... or a list in QI order; {kind} {rng}".rstrip()
        return f"{'integer' if self.kind == 'int' else 'number'} {rng}".rstrip()

    def help_text(self) -> str:
        default = "" if self.default is None else f"; default {_plain(self.default)}"
        return f"{self.help} ({self.type_text()}{default})"

    def parse(self, value: Any, source: Source, prefix: str = "") -> Any:
        text = source != "job"  # a job file's values are typed; the API, like the CLI, also takes text
        what = prefix + self.name if source == "job" else self.flag
        if self.parser is not None:
            return self.parser(value, what, text)
        if self.kind == "flag":
            return parse_flag(value, what, text=text)
        if self.kind == "int":
            return parse_int(value, what, low=self.low, high=self.high or MAX_INT, text=text)
        if self.kind == "number":
            high = self.high if self.high is not None else 10**9
            return parse_number(value, what, low=self.low, high=high, low_open=self.low_open, text=text)
        if not isinstance(value, str) or not value.strip():
            if self.kind == "pairs" and isinstance(value, (Mapping, list, tuple)):
                return self._pairs(value, what, text)
            raise _type_error(what, self.type_text(), value)
        if self.kind == "choice":
            word = value.strip().lower().replace("_", "-")
            if word not in self.choices:
                either = (
                    " or ".join(self.choices)
                    if len(self.choices) == 2
                    else "one of " + ", ".join(self.choices)
                )
                raise BadInput(
                    f"unknown {what} {value!r}: {what} must be {either}",
                    did_you_mean(word, self.choices) + f"the choices are: {', '.join(self.choices)}",
                )
            return word
        if self.kind == "pairs":
            return self._pairs(value, what, text)
        return value.strip()

    def _item(self, value: Any, what: str, text: bool) -> Any:
        if self.item == "int":
            return parse_int(value, what, low=self.low, high=self.high or MAX_INT, text=text)
        high = self.high if self.high is not None else 10**9
        return parse_number(value, what, low=self.low, high=high, low_open=self.low_open, text=text)

    def _pairs(self, value: Any, what: str, text: bool) -> dict[str, Any] | list[Any]:
        """``text``: the source may give values as text (the CLI, the API); a job file's are typed."""
        if isinstance(value, Mapping):
            items: list[tuple[str | None, Any, bool]] = [(str(k), v, text) for k, v in value.items()]
        elif isinstance(value, (list, tuple)):
            items = [(None, v, text) for v in value]
        else:
            parts = [p.strip() for p in str(value).split(",")]
            if any(not p for p in parts):
                raise BadInput(f"{what} has an empty entry: {value!r}", f"write {what} as {self.type_text()}")
            items = [
                (p.split("=", 1)[0].strip(), p.split("=", 1)[1], True) if "=" in p else (None, p, True)
                for p in parts
            ]
        named = [k is not None for k, _, _ in items]
        if any(named) and not all(named):
            raise BadInput(f"{what} mixes name=value and plain entries: {value!r}", "use one form")
        if not items:
            return {} if isinstance(value, Mapping) else []
        if not any(named):
            return [self._item(v, f"{what} entry {i}", t) for i, (_, v, t) in enumerate(items, 1)]
        out: dict[str, Any] = {}
        lowered: dict[str, str] = {}
        for k, v, t in items:
            assert k is not None
            if not k:
                raise BadInput(f"{what} has an entry without a name: {value!r}", "write name=value")
            if k.lower() in lowered:
                raise BadInput(f"{what} names {k!r} twice", f"give each name once in {what}")
            lowered[k.lower()] = k
            out[k] = self._item(v, f"{what} of {k!r}", t)
        return out


def _plain(x: Any) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def key_of(name: str) -> str:
    """The declared key a user's spelling means: ``Top-H`` and ``top_h`` are ``top_h``."""
    return name.strip().lower().replace("-", "_")


def validate(
    declared: Sequence[Option],
    values: Mapping[str, Any],
    source: Source,
    where: str,
    prefix: str = "",
) -> dict[str, Any]:
    """Parse and validate ``values`` against ``declared``: every declared option is in the result
    (its default when not given); an unknown key is an error listing the real ones (``where`` names
    the set, e.g. "bsgi options"). A value of None means "not given"."""
    by_key = {o.name: o for o in declared}
    out = {o.name: o.default for o in declared}
    given: dict[str, str] = {}
    for raw_key, value in values.items():
        key = key_of(str(raw_key))
        opt = by_key.get(key)
        if opt is None:
            shown = [prefix + o.name if source == "job" else o.flag for o in declared]
            spelled = prefix + str(raw_key) if source == "job" else "--" + key.replace("_", "-")
            raise BadInput(
                f"unknown option {spelled!r} for {where}",
                (did_you_mean(spelled, shown) + f"the {where} are: {', '.join(shown)}")
                if shown
                else f"{where} take no options",
            )
        if key in given:
            raise BadInput(
                f"option {opt.name!r} is given twice ({given[key]!r} and {raw_key!r})", "give it once"
            )
        given[key] = str(raw_key)
        if value is not None:
            out[key] = opt.parse(value, source, prefix)
    return out


def per_qi(value: Mapping[str, Any] | Sequence[Any], qi: Sequence[str], option: str) -> dict[str, Any]:
    """A validated ``pairs`` option resolved against the QIs: a map by name (names must be QIs, each once)
    or a list in QI order (one entry per QI). Returns real QI name -> value for the QIs it gives."""
    if isinstance(value, Mapping):
        names = match_names(list(value), qi, "a QI", option)
        return {names[k]: v for k, v in value.items()}
    if len(value) != len(qi):
        raise BadInput(
            f"{option} gives {len(value)} {option.lstrip('-')} for {len(qi)} QIs",
            f"give one per QI, in QI order ({', '.join(qi)}), or name them: {qi[0]}=...",
        )
    return dict(zip(qi, value, strict=True))
