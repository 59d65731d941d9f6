"""The frames of one Decomposition+ release, in numpy and pandas: the groups earlier releases published
(coded), the SA-table rows of new and grown groups, the noise log, and the release's details."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...sqlgen.render import Ident, TableRef, render
from ...util.lazy import library
from ...util.seeded_key import published_ids
from .coding import Coder
from .config import StreamConfig
from .forming import Forming
from .noise import Noise

if TYPE_CHECKING:
    import pandas as pd

    from ...db import Database
else:
    pd = library("pandas")


@dataclass
class Built:
    assignment: pd.DataFrame
    sa_rows: pd.DataFrame
    noise: pd.DataFrame
    new_groups: int
    groups_total: int
    details: dict[str, Any]
    published_groups: int = 0  # the largest group id earlier releases published (new groups come after)


@dataclass
class Previous:
    """The groups earlier releases of the stream published, coded: every SA-table row's group and
    codes, and the marginals' codes (empty for a first release)."""

    group: np.ndarray
    gids: np.ndarray  # the distinct groups, sorted
    codes: list[np.ndarray]
    marginals: list[np.ndarray]


def previous(
    db: Database,
    config: StreamConfig,
    coders: Sequence[Coder],
    sa: TableRef | None,
    marginals: TableRef | None,
) -> Previous:
    k = len(config.sa)
    if sa is None or marginals is None:
        empty = np.zeros(0, dtype=np.int64)
        return Previous(empty, empty, [], [empty for _ in range(k)])
    sa_idents = [Ident(s) for s in config.sa]
    prev = db.df(
        render(
            "decomposition/previous_sa.sql", source=sa, group_column=Ident(config.group_column), sa=sa_idents
        ),
        bulk=True,
    )
    group = prev["gid"].to_numpy(dtype=np.int64)
    codes = [coders[i].encode(prev[f"s{i + 1}"].tolist()) for i in range(k)]
    marg = db.df(render("decomposition/previous_marginals.sql", source=marginals, sa=sa_idents), bulk=True)
    marg_codes = [coders[i].encode(marg[f"s{i + 1}"].tolist()) for i in range(k)]
    return Previous(group, np.unique(group), codes, marg_codes)


class Publish:
    """The new groups' (ids ``base`` + 1 .. ``base`` + ``new``) published ids: THE rule of
    pipeline/opaque.py on the run's seed, so that the pipeline renumbers nothing
    (``Release.ids_published``); ids up to ``base`` are earlier releases' and stay."""

    def __init__(self, base: int, new: int, seed: int) -> None:
        self.base = base
        self.ids = np.r_[np.int64(0), published_ids(np.arange(base + 1, base + new + 1), seed, base=base)]

    def __call__(self, gid: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.where(gid > self.base, self.ids.take(np.maximum(gid - self.base, 0)), gid)
        return out


def sa_rows(
    coders: Sequence[Coder],
    gid: np.ndarray,
    sel: np.ndarray,
    into_old: np.ndarray,
    grown: np.ndarray,
    prev: Previous,
    noise: Noise,
) -> pd.DataFrame:
    """The SA-table rows of the new groups (rows ``sel``, with noise) and of the published groups that
    grew (their published rows and the rows placed into them). With several SAs each is sorted inside
    its group, which is what breaks their alignment; one SA's rows are left in no order, as the table's
    order is decomposition/write_sa.sql's (by group and value) and nothing else reads theirs."""
    k = len(coders)
    parts_gid = [gid[sel]]
    parts_codes = [[coders[0].codes[sel]] + [noise.codes[i - 1][sel] for i in range(1, k)]]
    if len(grown):
        keep_prev = np.isin(prev.group, grown)
        parts_gid.append(prev.group[keep_prev])
        parts_codes.append([prev.codes[i][keep_prev] for i in range(k)])
        inc = np.nonzero(into_old)[0]
        parts_gid.append(gid[inc])
        parts_codes.append([coders[i].codes[inc] for i in range(k)])
    all_gid = np.concatenate(parts_gid)
    if k == 1:
        codes = np.concatenate([p[0] for p in parts_codes])
        return pd.DataFrame({"gid": all_gid, "s1": coders[0].decode(codes)})
    sa_cols: dict[str, Any] = {}
    for i in range(k):
        codes = np.concatenate([p[i] for p in parts_codes])
        order = np.lexsort((coders[i].order()[codes], all_gid))
        sa_cols[f"s{i + 1}"] = coders[i].decode(codes[order])
    return pd.DataFrame({"gid": np.sort(all_gid, kind="stable"), **sa_cols})


def noise_frame(config: StreamConfig, coders: Sequence[Coder], noise: Noise) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "gid": [a.group for a in noise.added],
            "sa": [config.sa[a.sa] for a in noise.added],
            "replaced": [coders[a.sa].values[a.replaced] for a in noise.added],
            "noise": [coders[a.sa].values[a.noise] for a in noise.added],
            "distance": [a.distance for a in noise.added],
        },
        columns=["gid", "sa", "replaced", "noise", "distance"],
    )
    frame["gid"] = frame["gid"].astype("int64")
    frame["distance"] = frame["distance"].astype("float64")
    return frame


def placement(primary: Coder, forming: Forming, starvation: np.ndarray, placed: np.ndarray) -> dict[str, Any]:
    kept = ~placed
    return {
        "rows_newly_published": int(np.count_nonzero(placed)),
        "rows_kept_back": int(np.count_nonzero(kept)),
        "kept_back_by_primary": {
            primary.values[b]: int(n) for b, n in enumerate(forming.schedule.residual) if n
        },
        "incorporated": forming.incorporated,
        "incorporated_into_published_groups": forming.incorporated_into_published,
        "max_starvation_published": int(starvation[placed].max()) if placed.any() else None,
        "max_starvation_waiting": int(starvation[kept].max()) if kept.any() else None,
    }


def noise_details(config: StreamConfig, noise: Noise) -> dict[str, Any]:
    mean_d = noise.mean_distance()
    return {
        "noise": noise.count,
        "noise_by_sa": {
            config.sa[i]: sum(1 for a in noise.added if a.sa == i) for i in range(1, len(config.sa))
        },
        "groups_noised": noise.groups_noised,
        "noise_mean_distance": None if mean_d is None or mean_d != mean_d else round(mean_d, 6),
    }
