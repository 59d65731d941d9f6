"""The only place that renders SQL. Templates live in ``sql/`` (DuckDB dialect, one statement per file).

Rules enforced here:

* identifiers reach SQL only through the ``ident`` / ``idents`` / ``table`` filters, which quote them
  as DuckDB (and sqlglot's DuckDB dialect) does (``zip"code`` becomes ``"zip""code"``);
* values never reach SQL text: they are bound parameters (``$l``, ``$theta``) whose names the template's
  header declares (``-- params: l, theta``); :func:`render` refuses missing or undeclared params;
* a ``finalize`` hook refuses any raw ``str`` printed by ``{{ }}``, so a value cannot be pasted in by mistake.

The shipped templates' compiled code is kept in the user's cache between processes (:func:`cache_for`).

The HTML pages of ``ldiv report`` / ``ldiv compare`` (``ldiv_db/reporting/templates/``) are rendered here
too, by a second sandboxed environment with autoescape on: every value is escaped unless the page code
marks it :func:`html_safe` (the inline SVG charts the plotting library wrote).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import pickle
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe
from jinja2.bccache import Bucket
from jinja2.sandbox import SandboxedEnvironment

from ..util.cache import cache_folder
from ..util.lazy import library
from ..util.resources import sql_dir
from .table_function import TableFunction

if TYPE_CHECKING:
    import sqlglot.expressions as exp
else:
    exp = library("sqlglot.expressions")  # a type name's check alone (decision 0023, Round 7)


class SqlText(str):
    """A fragment of SQL produced by a filter (a quoted identifier list); safe to print."""


@dataclass(frozen=True)
class Ident:
    """A resolved identifier (column or table part), spelled exactly as the catalog spells it."""

    name: str

    def __str__(self) -> str:
        return quote(self.name)


@dataclass(frozen=True)
class TableRef:
    """A resolved table: optional catalog and schema plus the name, as the catalog spells them."""

    name: str
    schema: str | None = None
    catalog: str | None = None

    @property
    def parts(self) -> tuple[str, ...]:
        return tuple(p for p in (self.catalog, self.schema, self.name) if p is not None)

    def sql(self) -> str:
        return ".".join(quote(p) for p in self.parts)

    def display(self) -> str:
        """``schema.table`` for people, and for ``split_name`` to read back: a part holding a dot or
        starting with a double quote is quoted (``main."a.b"``); any other part is shown as it is."""
        return ".".join(_display_part(p) for p in self.parts)

    def __str__(self) -> str:
        return self.sql()


def _display_part(part: str) -> str:
    if "." in part or part.startswith('"') or not part:
        return '"' + part.replace('"', '""') + '"'
    return part


@dataclass(frozen=True)
class Query:
    """A rendered statement: template name, SQL text and the bound parameters. ``variants`` holds the
    rendering of a per-dialect template variant (``x.postgres.sql`` beside ``x.sql``), by dialect."""

    name: str
    sql: str
    params: Mapping[str, Any] = field(default_factory=dict)
    variants: Mapping[str, str] = field(default_factory=dict)
    hints: frozenset[str] = frozenset()

    def sql_for(self, dialect: str) -> str:
        """The text to translate for ``dialect``: its variant if the template has one, else ``sql``."""
        return self.variants.get(dialect, self.sql)

    def hinted(self, *hints: str) -> Query:
        """This statement with more plan hints (:data:`PLAN_HINTS`), for a fact about its data that only
        the caller knows (e.g. a release aggregate over groups of a few rows each)."""
        unknown = set(hints) - PLAN_HINTS.keys()
        if unknown:
            raise ValueError(f"unknown plan hints {sorted(unknown)}; known: {sorted(PLAN_HINTS)}")
        return dataclasses.replace(self, hints=self.hints | frozenset(hints))


@dataclass(frozen=True)
class TemplateHeader:
    purpose: str
    params: frozenset[str]
    returns: str
    hints: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=4096)
def quote(name: str) -> str:
    """Quote one identifier for DuckDB: in double quotes, a double quote doubled; nothing else is
    escaped, as sqlglot's DuckDB dialect writes it (tests/unit/test_render.py compares the two), without
    loading sqlglot on a path that translates nothing (cached: names repeat across every statement)."""
    return '"' + name.replace('"', '""') + '"'


def _as_name(value: Any) -> str:
    if isinstance(value, Ident):
        return value.name
    if isinstance(value, str):
        return value
    raise TypeError(f"identifier expected, got {type(value).__name__}")


def _ident(value: Any, prefix: str | None = None) -> SqlText:
    if isinstance(value, TableRef):
        return SqlText(value.sql())
    text = quote(_as_name(value))
    return SqlText(f"{prefix}.{text}" if prefix else text)


def _idents(values: Iterable[Any], prefix: str | None = None, sep: str = ", ") -> SqlText:
    return SqlText(sep.join(_ident(v, prefix) for v in values))


def _salted(values: Iterable[Any], prefix: str | None = None) -> SqlText:
    """The keys as the templates' second hash reads them, ``hash({{ keys | salted }})``: each as text
    after a salt. DuckDB's ``hash(keys)`` combines one hash per key by a fixed rule, so
    ``hash(keys, 'ldiv')`` is a function of it, and any mix of the same per-key hashes collides where two
    keys' hashes do; salted text is hashed at inputs the first hash never reads (docs/development.md)."""
    salt = "'" + SECOND_HASH_SALT + "'"
    return SqlText(", ".join(f"{salt} || CAST({_ident(v, prefix)} AS VARCHAR)" for v in values))


def _table(value: Any) -> SqlText:
    if isinstance(value, TableRef):
        return SqlText(value.sql())
    raise TypeError(f"table reference expected, got {type(value).__name__}")


def _create_table(value: Any) -> SqlText:
    """``CREATE OR REPLACE [TEMP] TABLE name``: work tables in the temp catalog are temporary."""
    ref = value if isinstance(value, TableRef) else None
    if ref is None:
        raise TypeError(f"table reference expected, got {type(value).__name__}")
    temp = "TEMP " if ref.catalog == "temp" else ""
    return SqlText(f"CREATE OR REPLACE {temp}TABLE {ref.sql()}")


def _table_function(value: Any) -> SqlText:
    """A checked table-function call (:class:`~ldiv_db.sqlgen.table_function.TableFunction`), nothing else."""
    if isinstance(value, TableFunction):
        return SqlText(value.sql)
    raise TypeError(f"table function expected, got {type(value).__name__}")


def _sqltype(value: Any) -> SqlText:
    """A column type as the catalog spells it (``DECIMAL(18,3)``, ``VARCHAR``), checked by parsing it
    as a type: anything else is refused."""
    if not isinstance(value, str):
        raise TypeError(f"type name expected, got {type(value).__name__}")
    return SqlText(exp.DataType.build(value, dialect="duckdb").sql(dialect="duckdb"))


def _finalize(value: Any) -> Any:
    if isinstance(value, SqlText):
        return value
    if isinstance(value, (Ident, TableRef)):
        return str(value)
    if isinstance(value, bool):
        raise TypeError("booleans must be bound as parameters, not printed into SQL")
    if isinstance(value, int):
        return value  # loop indices and column positions; never user data
    raise TypeError(
        f"refusing to print a raw {type(value).__name__} into SQL ({value!r}); "
        "use a bound $param for values or the ident filter for names"
    )


# the contexts a rendering is kept for: made of values that compare equal only when they print alike
# (the type is part of the key: True and 1 are equal, but a bool may not be printed; no float: -0.0 and
# 0.0 are equal, and a template could join one into a name)
_FROZEN_TYPES = frozenset({str, int, bool, type(None), SqlText, Ident, TableRef, TableFunction})
_UNCACHED = object()  # a context holding any other value (an object whose state a template may read)
RENDERED_KEPT = 4096  # renderings kept per renderer; the store starts again when full


def _frozen(value: Any) -> Hashable:
    """``value`` as a hashable key, or :data:`_UNCACHED`."""
    if type(value) in _FROZEN_TYPES:
        return (type(value), value)
    if isinstance(value, (list, tuple)):
        items = tuple(_frozen(v) for v in value)
        return _UNCACHED if _UNCACHED in items else (type(value), items)
    if isinstance(value, dict):
        pairs = tuple((k, _frozen(v)) for k, v in value.items())
        return _UNCACHED if any(v is _UNCACHED or type(k) is not str for k, v in pairs) else (dict, pairs)
    return _UNCACHED


# ``-- hints: a, b`` in a template header: facts about the statement's data that an engine's planner
# cannot see. They never change the result, only how an engine may run it.
PLAN_HINTS = {
    "many-groups": "its aggregation makes a group for every few rows it reads (aggregate by sorting)",
    "lookup": "it creates a small table that joins over a whole source look values up in (give it statistics)",
    "read-whole": "the statements after it read its table whole (its statistics would change no plan)",
    "joins-in-order": "its joins are written in the order that keeps the fewest rows (estimates cannot tell)",
    "changes-a-row": "its UPDATE changes a row the caller wrote (an engine that rewrites the table for it need "
    "not first ask whether any row matches)",
}

_HEADER_LINE = re.compile(r"^--\s*(\w+)\s*:\s*(.*)$")


def parse_header(text: str) -> TemplateHeader:
    """Read the ``-- key: value`` comment block at the top of a template."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("--"):
            break
        m = _HEADER_LINE.match(stripped)
        if m:
            fields[m.group(1).lower()] = m.group(2).strip()
    raw = fields.get("params", "none")
    params = frozenset() if raw.lower() in ("", "none") else frozenset(p.strip() for p in raw.split(","))
    hints = frozenset(h.strip() for h in fields.get("hints", "").split(",") if h.strip())
    unknown = hints - PLAN_HINTS.keys()
    if unknown:
        raise ValueError(f"unknown plan hints {sorted(unknown)}; known: {sorted(PLAN_HINTS)}")
    return TemplateHeader(fields.get("purpose", ""), params, fields.get("returns", ""), hints)


# ---------------------------------------------------------------------------- compiled templates, kept
# A command compiles each template it renders once per process (Jinja's parse and code generation), and a
# run renders 60-70 of them before its statements do any work; with the compiled code in the user's cache
# a later process loads it instead (decision 0033, Round 5). On by default, in
# ``$XDG_CACHE_HOME/ldiv_db/templates`` or ``~/.cache/ldiv_db/templates`` (``LDIV_TEMPLATE_CACHE=DIR``: in
# that folder; ``=off``: none). Safe with concurrent processes: Jinja writes an entry to a temporary file
# and renames it into place, so a reader sees a whole entry or none. An entry serves only the template
# file it was compiled from (keyed by name and path) with the same text (Jinja's checksum of the source),
# on the same Python and Jinja (its magic header) and environment options (:func:`cache_for`'s folder);
# anything else, or a cache that cannot be read or written, compiles the template as before.
TEMPLATE_CACHE_ENV = "LDIV_TEMPLATE_CACHE"


class _Cache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, with a failed read or write costing a compile, never the render."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (
            OSError,
            EOFError,
            ValueError,
            TypeError,
            pickle.UnpicklingError,
        ):  # a damaged entry: compiled
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(
            OSError
        ):  # a full disk, a folder that may not be written: compiled next time
            super().dump_bytecode(bucket)


def cache_dir() -> Path | None:
    """Where compiled templates are kept (``LDIV_TEMPLATE_CACHE=DIR``: there), or None
    (``LDIV_TEMPLATE_CACHE=off``)."""
    return cache_folder(TEMPLATE_CACHE_ENV, "templates")


def cache_for(
    kind: type[jinja2.Environment], options: Mapping[str, Any], filters: Mapping[str, Any]
) -> jinja2.BytecodeCache | None:
    """The cache for an environment of class ``kind`` built with ``options`` and ``filters``: a folder per
    class and set of options (code compiled with other options, e.g. another whitespace control, is
    never loaded), or None when the cache is off or its folder cannot be made (no home directory, a
    folder that may not be written)."""
    spelled = sorted((k, _spelled(v)) for k, v in options.items())
    shape = repr((jinja2.__version__, _spelled(kind), spelled, sorted(filters)))
    try:
        root = cache_dir()
        if root is None:
            return None
        folder = root / hashlib.sha256(shape.encode()).hexdigest()[:16]
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        held = folder.stat()
    except (OSError, RuntimeError):  # RuntimeError: Path.home() without a home directory
        return None
    if held.st_uid != os.getuid() or held.st_mode & 0o022:
        return None  # the code read from it is run: only a folder that this user alone may write
    return _Cache(str(folder))


def _spelled(value: Any) -> str:
    """An option as the same text in every process (a function by its name, not its address)."""
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
    return repr(value)


class Renderer:
    """Renders templates from a directory (default: the shipped ``sql/``)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or sql_dir()
        options: dict[str, Any] = {
            "undefined": jinja2.StrictUndefined,
            "finalize": _finalize,
            "autoescape": False,
            "trim_blocks": True,
            "lstrip_blocks": True,
            "keep_trailing_newline": False,
            "auto_reload": False,  # the templates do not change while a process runs: no stat() per render
        }
        filters = {
            "ident": _ident,
            "idents": _idents,
            "salted": _salted,
            "table": _table,
            "create_table": _create_table,
            "sqltype": _sqltype,
            "table_function": _table_function,
        }
        # the shipped templates' compiled code from the user's cache (another root: tests' own templates)
        shipped = root is None or self.root.resolve() == sql_dir().resolve()
        self.env = SandboxedEnvironment(
            loader=jinja2.FileSystemLoader(str(self.root)),
            bytecode_cache=cache_for(SandboxedEnvironment, options, filters) if shipped else None,
            **options,
        )
        self.env.filters.update(filters)
        # the rendered text by template and context (bound values are not part of it): a command renders
        # the same statements again, call after call (a check in a loop, a search's repeated steps)
        self._rendered: dict[tuple[str, Hashable], tuple[str, Mapping[str, str]]] = {}

    @functools.cache  # noqa: B019 - one renderer per process, templates are immutable
    def header(self, name: str) -> TemplateHeader:
        return parse_header((self.root / name).read_text(encoding="utf-8"))

    def templates(self) -> list[str]:
        """Every renderable template (macros excluded), as paths relative to the root."""
        return sorted(
            p.relative_to(self.root).as_posix()
            for p in self.root.rglob("*.sql")
            if not p.relative_to(self.root).as_posix().startswith("_") and "." not in p.stem
        )

    @functools.cache  # noqa: B019 - one renderer per process, templates are immutable
    def variants_of(self, name: str) -> tuple[str, ...]:
        """The dialects with a variant of template ``name`` (``sql/a/x.postgres.sql`` for ``a/x.sql``: the
        engine whose ``dialect`` is ``postgres`` runs it instead);
        a variant is written for sqlglot's DuckDB parser too (then translated), in the subset the
        target dialect accepts, and declares the same params."""
        folder, _, file = name.rpartition("/")
        return self._variants_in(folder).get(file.removesuffix(".sql"), ())

    @functools.cache  # noqa: B019 - one renderer per process, templates are immutable
    def _variants_in(self, folder: str) -> dict[str, tuple[str, ...]]:
        """The variants in one folder of templates (``x.<dialect>.sql``), by stem: one listing per folder."""
        found: dict[str, list[str]] = {}
        for entry in os.scandir(self.root / folder):
            parts = entry.name.split(".")
            if len(parts) == 3 and parts[2] == "sql" and parts[1].isidentifier():
                found.setdefault(parts[0], []).append(parts[1])
        return {stem: tuple(sorted(ds)) for stem, ds in found.items()}

    def render(self, name: str, params: Mapping[str, Any] | None = None, **ctx: Any) -> Query:
        header = self.header(name)
        bound = dict(params or {})
        missing = header.params - bound.keys()
        extra = bound.keys() - header.params
        if missing or extra:
            raise TypeError(
                f"{name}: params mismatch (missing {sorted(missing)}, undeclared {sorted(extra)}); "
                f"the header declares {sorted(header.params)}"
            )
        key = _frozen(ctx)
        texts = self._rendered.get((name, key)) if key is not _UNCACHED else None
        if texts is None:
            texts = self._render_texts(name, ctx)
            if key is not _UNCACHED:
                if len(self._rendered) >= RENDERED_KEPT:
                    self._rendered.clear()
                self._rendered[(name, key)] = texts
        sql, variants = texts
        # Bind only what the rendered text uses: shape branches may drop a declared param.
        every = [sql, *variants.values()]
        used = {
            k: v for k, v in bound.items() if any(re.search(r"\$" + re.escape(k) + r"\b", t) for t in every)
        }
        return Query(name, sql, used, dict(variants), header.hints)

    def _render_texts(self, name: str, ctx: Mapping[str, Any]) -> tuple[str, Mapping[str, str]]:
        sql = self.env.get_template(name).render(**ctx).strip()
        variants = {
            d: self.env.get_template(f"{name.removesuffix('.sql')}.{d}.sql").render(**ctx).strip()
            for d in self.variants_of(name)
        }
        return sql, variants


@functools.lru_cache(maxsize=1)
def default_renderer() -> Renderer:
    return Renderer()


def render(name: str, params: Mapping[str, Any] | None = None, **ctx: Any) -> Query:
    """Render ``sql/<name>`` with the shared renderer."""
    return default_renderer().render(name, params, **ctx)


# ---------------------------------------------------------------------------- HTML pages (ldiv report)
_HTML_DIR = Path(__file__).resolve().parents[1] / "reporting" / "templates"


@functools.lru_cache(maxsize=1)
def _html_env() -> SandboxedEnvironment:
    return SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(str(_HTML_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def html_safe(text: str) -> markupsafe.Markup:
    """Mark trusted markup (an SVG chart written by the plotting library) as safe to insert unescaped."""
    return markupsafe.Markup(text)


def render_html(name: str, **ctx: Any) -> str:
    """Render the page template ``ldiv_db/reporting/templates/<name>``; every value is HTML-escaped."""
    return _html_env().get_template(name).render(**ctx)


# ---------------------------------------------------------------------------- other engines' dialects
from .dialects import SECOND_HASH_SALT, translate, written_tables  # noqa: E402

__all__ = ["Query", "Renderer", "TableRef", "quote", "render", "translate", "written_tables"]
