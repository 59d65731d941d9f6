"""The contract between the release pipeline (:mod:`ldiv_db.pipeline`) and an algorithm.

An algorithm receives an :class:`AnonymizeRequest` (resolved source, QIs, SAs, privacy model,
hierarchies, options, progress) and returns what to publish:

- a :class:`Partitioning` for a one-table release: a work table ``assignment(rid, gid, deleted,
  sa_suppressed)`` covering every source row exactly once, plus how the published QI labels are formed;
- or a :class:`Release` of several tables (Decomposition+: QID table, SA table, marginals), which names
  its tables and brings the statements that write them, the counts that reconcile them with the input
  and the checks of its model on the written tables.

Either way the pipeline publishes it in ONE transaction: it drops the previous tables, writes, refuses a
release that does not reconcile, verifies on the written tables, records ``ldiv.release`` (and the
stream state of a stream release), the private row link and table ownership, and rolls everything back
when verification fails. An algorithm never opens a transaction, records a run or a release itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from .. import taxonomy
from ..core.options import Option
from ..errors import BadInput

if TYPE_CHECKING:
    from ..core.catalog import Column, Table
    from ..core.inputs import Inputs
    from ..db import Database
    from ..privacy import PrivacyModel
    from ..sqlgen.render import TableRef
    from ..taxonomy import Hierarchy
    from ..util.progress import Progress
    from ..verify.guarantees import Guarantee

Recoding = Literal["lca", "suppress", "levels", "labels"]
LabelKind = Literal["hierarchy", "numeric", "flat"]


def lca_kinds(qi: Sequence[Column], hierarchy_ids: Mapping[str, int]) -> list[LabelKind]:
    """How the 'lca' recoding publishes each QI (SPEC §0.5): numeric columns as 'lo-hi' ranges,
    categorical columns with a hierarchy by the LCA, the others flat (the value or '*'). Algorithms that
    price their groups (BSGI, Mondrian) use the same rule, so their IL is the published one."""
    out: list[LabelKind] = []
    for c in qi:
        if c.is_numeric:
            out.append("numeric")
        elif c.name in hierarchy_ids:
            out.append("hierarchy")
        else:
            out.append("flat")
    return out


def lca_hierarchy_ids(qi: Sequence[Column], hierarchy_ids: Mapping[str, int]) -> list[int]:
    """The ldiv.hierarchy id per QI for the templates' ``$hids`` (0 where the QI is not published by LCA)."""
    kinds = lca_kinds(qi, hierarchy_ids)
    return [hierarchy_ids.get(c.name, 0) if k == "hierarchy" else 0 for c, k in zip(qi, kinds, strict=True)]


def group_column_name(inputs: Inputs, keep: Sequence[str]) -> str:
    """The published group column: ``group_id``, with ``_`` appended while a QI, SA or kept column has
    that name."""
    taken = {c.name.lower() for c in (*inputs.qi, *inputs.sa)} | {k.lower() for k in keep}
    name = "group_id"
    while name in taken:
        name += "_"
    return name


def stored_hierarchies(request: AnonymizeRequest, why: str) -> tuple[list[int], list[Hierarchy]]:
    """Every QI's stored hierarchy (its ldiv.hierarchy id and model), for algorithms that generalize
    every QI along one; a QI without one is a BadInput saying ``why`` the algorithm needs it."""

    db, inputs = request.db, request.inputs
    hids: list[int] = []
    hierarchies: list[Hierarchy] = []
    for col in inputs.qi:
        hid = request.hierarchy_ids.get(col.name)
        h = taxonomy.load(db, inputs.table.name, col.name) if hid is not None else None
        if hid is None or h is None:
            raise BadInput(
                f"QI {col.name!r} has no hierarchy; {why}",
                f"import one: ldiv hierarchy import DB --table {inputs.table.name} --column '{col.name}' FILE "
                "(or build one for a numeric column: ldiv hierarchy build ... --intervals 5,10,20)",
            )
        hids.append(hid)
        hierarchies.append(h)
    return hids, hierarchies


@dataclass
class AnonymizeRequest:
    db: Database
    inputs: Inputs
    model: PrivacyModel
    hierarchy_ids: Mapping[str, int]  # QI column name -> ldiv.hierarchy id (absent: no hierarchy)
    options: Mapping[str, Any]  # the algorithm's declared options, validated, defaults filled in
    progress: Progress
    seed: int | None = None  # the user's --seed: an algorithm's random choices (None: its default ones)
    # the run's seed (--seed, else drawn per run): the key that breaks ties among rows (ldiv_db.pipeline.opaque)
    order_seed: int = 0
    class_column: str | None = None  # the class column (CM metric), as spelled by the user
    heights: Mapping[str, int] = field(default_factory=dict)  # QI column name -> its hierarchy's height
    output: TableRef | None = None  # the release name (--output)
    replace: bool = False  # --replace: the release may replace one of the same name
    keep_columns: Sequence[str] = ()  # columns published unchanged (--keep, the class column)
    null_as_value: bool = False
    stream: StreamState | None = None  # a stream algorithm: the stream of that name, if one exists


@dataclass
class Partitioning:
    """An algorithm's result. Recoding 'labels' needs ``labels`` (rid, q1..qd) or, where every group has
    one label vector, ``group_labels`` (gid, q1..qd)."""

    assignment: TableRef
    recoding: Recoding
    levels: Mapping[str, int] = field(default_factory=dict)
    labels: TableRef | None = None
    group_labels: TableRef | None = None  # 'lca' (shared/lca.py) or 'labels': the algorithm's (gid, q1..qd)
    # 'suppress': the groups whose rows disagree on some QI, a flag per QI (gid, s1..sd; a group not in it
    # agrees on every QI), where the algorithm knows them: the write then labels each row from its own
    # values and these flags, not from a grouping of every row (release/write_suppress.sql, stars). The
    # verification does not take its word: it finds the label vectors of each group on the written table
    group_stars: TableRef | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # the model the partition delivers where it differs from the request's (None: the request's); a run
    # that delivers another model than the one asked for is refused before anything is written
    # (:func:`ldiv_db.verify.guarantees.refuse_weakened`), ``shortfall`` saying why
    verify_model: PrivacyModel | None = None
    shortfall: str = ""
    metric_weights: Sequence[Fraction] | None = None  # QI weights of the reported IL/NCP (default 1 each)
    guarantees: Sequence[Guarantee] = ()  # promises beyond the model, verified on the written release
    # the number of published groups where the algorithm counts them: a fact for the engine's plans (the
    # release aggregate, ldiv_db/pipeline/verify.py), never for a verdict (the release's checks count them)
    groups: int | None = None
    # True: the gid columns already hold THE published ids (ldiv_db.util.seeded_key.published_ids with the
    # request's order_seed, base 0, the pipeline's seed), so the pipeline renumbers nothing
    ids_published: bool = False


# ---------------------------------------------------------------------------- several tables
@dataclass(frozen=True)
class Header:
    """What ``ldiv.release`` records of a release besides its counts and verdict."""

    name: str  # the release name (OUT)
    source: str
    algorithm: str
    model: str
    model_params: dict[str, Any]
    l: list[int] | None  # the model's l per SA, as recorded
    qi: list[str]
    sa: list[str]
    output: str  # the written tables, for people
    shown_l: Any = None  # the result's ``l`` (None: the caller's)


@dataclass(frozen=True)
class Reconciled:
    """A written release's counts against its input: ``rows_in`` rows = ``published`` + ``withheld``
    (deleted, or kept back for a later release); ``problems`` lists every other count that does not
    match; ``counts`` are all counts, stored with the verdict."""

    rows_in: int
    published: int
    withheld: int
    counts: dict[str, int]
    problems: list[str]


@dataclass
class Verdict:
    """What the checks on the written tables found, and the release's figures."""

    verified: bool
    verification: dict[str, Any]
    metrics: dict[str, Any]
    details: dict[str, Any]
    groups: int
    rows_with_suppressed_cells: int = 0  # published rows with a '*' or an unknown SA (ldiv_db/util/words.py)
    rows_deleted: int = 0
    violation: str = ""  # which groups break the model, for the refusal


@dataclass(frozen=True)
class StreamState:
    """A release stream as ``ldiv.stream`` holds it: ``config`` is the algorithm's (JSON text), the rest
    is the pipeline's (releases so far, the first release's id, the next row key, the kept-back rows)."""

    name: str
    source: str
    config: str
    releases: int
    first_release: int
    next_key: int
    retained: TableRef


def retained_ref(db: Database, name: str) -> TableRef:
    """The private table (schema ``ldiv``) of the rows a stream keeps back for a later release."""
    return db.private_ref(f"retained:{name}")


@dataclass(frozen=True)
class StreamUpdate:
    """The stream state a stream release leaves (saved with it): ``first_release`` None starts the
    stream with this release."""

    source: str
    config: str
    releases: int
    first_release: int | None
    next_key: int
    retained: TableRef


class Release(ABC):
    """What the release pipeline publishes: an algorithm whose output is not one table returns its own
    (Decomposition+'s three tables); the pipeline wraps a :class:`Partitioning` in one
    (:mod:`ldiv_db.pipeline.one_table`). ``tables`` are the published tables (owned by the release),
    ``private`` its private tables in schema ``ldiv`` (replaced with it); ``empty`` is (published,
    received) for the empty-release rule, None where the rule does not apply (a stream's later
    release). The pipeline renumbers its groups (:meth:`group_tables`), calls ``prepare``, then inside its transaction ``write``, ``reconcile``,
    ``verify``, ``link`` and ``promises``, in that order."""

    header: Header
    out: TableRef
    tables: tuple[TableRef, ...]
    private: tuple[TableRef, ...] = ()
    stream: StreamUpdate | None = None
    empty: tuple[int, int] | None = None
    # group ids up to this one were published by earlier releases of a stream and keep their ids
    published_groups: int = 0
    # the group ids are published already (Partitioning.ids_published): the pipeline renumbers nothing
    ids_published: bool = False

    @abstractmethod
    def group_tables(self) -> Sequence[tuple[TableRef, Sequence[str]]]:
        """Every work table of the release whose ``gid`` column holds group ids, with its columns; the
        first holds every group. The pipeline renumbers them all by one map before anything is written
        (:func:`ldiv_db.pipeline.opaque.publish_ids`), then calls :meth:`regrouped`."""

    @abstractmethod
    def regrouped(self, tables: Mapping[TableRef, TableRef]) -> None:
        """From now on read each table of :meth:`group_tables` from the renumbered table it maps to."""

    def prepare(self, db: Database) -> None:
        """Work-table statements that run once the release is known not to be empty, before the
        transaction."""
        return None

    @abstractmethod
    def write(self, db: Database) -> None:
        """Write the tables (inside the release transaction, after their previous versions are dropped)."""

    @abstractmethod
    def reconcile(self, db: Database) -> Reconciled:
        """Count the written tables against the input."""

    @abstractmethod
    def verify(self, db: Database, rec: Reconciled) -> Verdict:
        """Check the model on the written tables (and measure them)."""

    @abstractmethod
    def link(self, db: Database, release_id: int) -> None:
        """Record the private link ``ldiv.release_row`` (and the release's private logs)."""

    def promises(self, db: Database, release_id: int, verdict: Verdict) -> list[str]:
        """Check what the algorithm promised beyond the model on the recorded release; the broken ones."""
        return []

    def finish(self) -> None:
        """Stop and wait for what :meth:`prepare` started beside the connection (called once publishing
        ends, published or not)."""
        return None

    def fingerprints(self) -> Mapping[TableRef, tuple[int, str]]:
        """Fingerprints (:func:`ldiv_db.core.ownership.fingerprint`) of published tables that :meth:`reconcile`
        or :meth:`verify` took on the tables as written, while they waited for other work (a one-table
        release: while KL is solved); the pipeline takes the others."""
        return {}

    def staged_tables(self) -> tuple[TableRef, ...]:
        """The tables a release without transactions writes through staging tables (:meth:`stage`)."""
        return (*self.tables, *self.private)

    def unlink(self, db: Database, release_id: int) -> None:
        """Remove what :meth:`link` wrote besides ``ldiv.release_row`` (a staged release that failed before
        its record, or one killed there)."""
        return None

    def after_record(self, db: Database, replace: bool) -> None:
        """A staged release, once recorded: what a transaction would have written with the tables."""
        return None

    def stage(self, tables: Mapping[TableRef, TableRef]) -> None:
        """From now on write, reconcile, verify and check the promises on the table each published table
        maps to (an engine without transactions publishes through staging tables renamed afterwards,
        :mod:`ldiv_db.pipeline.staged`); an empty mapping: the published tables again."""

        raise BadInput(
            f"{self.header.algorithm} releases cannot be published through staging tables yet",
            "publish them on a DuckDB file or a PostgreSQL database",
        )


class Algorithm(ABC):
    """One anonymization algorithm. ``options`` declares its options once (:class:`~ldiv_db.core.options.Option`:
    name, type, range, default, help); the ``ldiv anonymize`` flags, ``--option`` keys, job-file keys and
    API keywords are generated from it, and ``run`` finds every declared option in ``request.options``,
    validated, with its default when not given. Two algorithms may declare the same name only with the
    same declaration."""

    name: str = ""
    default_model: str = "distinct"
    summary: str = ""
    options: tuple[Option, ...] = ()
    # True: the QIs are generalized through their stored hierarchies, where a NULL has no node (the
    # pipeline refuses NULLs in such a QI up front, with the way to give NULL a place)
    generalizes_by_hierarchy: bool = False
    # True: a release is a stream (``ldiv release append`` publishes its next releases)
    streams: bool = False
    # True: the result (groups, group ids, labels) is a function of the rows' values alone, never of their
    # row ids or order, so there is no tie for the seeded copy to break and the algorithm reads the source
    # as it is (ldiv_db/commands/anonymize.py: _run; decision 0033, Round 4). Held to it by
    # tests/integration/test_order_free.py: the source's rows permuted, the release must be the same.
    order_free: bool = False
    # True: every tie the algorithm breaks among rows falls by the run's seeded key (request.order_seed,
    # sql/_macros/seeded_key.sql) in its own statements, in the order the seeded copy would have, and its
    # assignment names the source's row ids: it reads the source as it is (no copy, nothing mapped back;
    # decision 0033, Round 6) where the engine's copy keys row ids so too (Database.keys_row_ids). Held to
    # the copy's release by tests/integration/test_keyed_ties.py.
    keyed_ties: bool = False
    # False: what the algorithm builds in Python is freed by reference counting when its ``run`` returns
    # and is small beside DuckDB's bound (TP+: the residue's columns), so at a large source the pipeline
    # neither collects nor lowers DuckDB's bound before the write (commands/anonymize.py: _run): the
    # eviction would free nothing of theirs and is serial time, one core idle (decision 0033,
    # "Round 13: TP+")
    holds_memory: bool = True
    # False: its run leaves no reference cycle behind (its arrays and frames go by reference counting when
    # ``run`` returns), so the eviction above keeps DuckDB's lowered bound and the heap's trim but skips
    # the garbage collection, serial time that would find nothing (decision 0033, "Round 15: the shared
    # tail"; held by tests/integration/test_mondrian_eviction.py)
    leaves_cycles: bool = True

    def check(self, request: AnonymizeRequest) -> None:
        """Check the options against the data (names, levels against heights) before the run is recorded,
        so a refused call writes nothing. Options naming QIs or columns are checked by the pipeline."""
        return None

    @abstractmethod
    def run(self, request: AnonymizeRequest) -> Partitioning | Release: ...

    def check_append(self, db: Database, stream: StreamState, batch: Table, key: Any) -> None:
        """Before a stream's next release is recorded: may ``batch`` join ``stream`` (``key``, when given,
        must be the stream's)? A release stream is an algorithm's; the others have none."""

        raise BadInput(f"{self.name} releases are not streams", "append to a Decomposition+ release")

    def append(
        self, db: Database, stream: StreamState, batch: Table, *, out: TableRef, progress: Progress, seed: int
    ) -> Release:
        """The next release of ``stream`` (named ``out``) from the rows of ``batch`` (``ldiv release
        append``); ``seed``: the run's, whose key breaks the ties among rows."""

        raise BadInput(f"{self.name} releases are not streams", "append to a Decomposition+ release")

    def output_tables(self, out: TableRef) -> tuple[TableRef, ...]:
        """The tables a release named ``out`` writes (checked by ldiv_db/core/ownership.py before the run)."""
        return (out,)

    def private_tables(self, db: Database, out: TableRef) -> tuple[TableRef, ...]:
        """ldiv_db's own tables (schema ``ldiv``) that releases named ``out`` keep between releases."""
        return ()
