"""Generalization hierarchies (taxonomies) and sensitivity categories (SPEC §0.4, §3.1).

* :mod:`.arrays`: :class:`TaxonomyArrays`, the one preorder array view every algorithm builds on;
* :mod:`.model`: :class:`Hierarchy`, the immutable tree with label-level queries;
* :mod:`.rows` / :mod:`.parsers`: ARX rows to a tree, the ARX CSV parser, the interval builder;
* :mod:`.stored`: the store in ``ldiv.hierarchy`` / ``_node`` / ``_level`` — the one place a stored
  taxonomy is read (:func:`load_arrays`, :func:`load`);
* :mod:`.categories`: sensitivity categories (file, store, display).

``from ldiv_db import taxonomy`` then ``taxonomy.load``, ``taxonomy.import_hierarchy``, ... work as
they always did: the public names are re-exported here.
"""

from __future__ import annotations

from ..core.stored import stored_categories
from .arrays import TaxonomyArrays
from .categories import (
    CategoriesInfo,
    check_category_ranks,
    import_categories,
    read_categories,
    show_categories,
)
from .model import ROOT_LABEL, Hierarchy
from .parsers import build_intervals, parse_arx
from .stored import (
    KINDS,
    SHOW_LINES,
    HierarchyInfo,
    build_hierarchy,
    import_hierarchy,
    list_hierarchies,
    load,
    load_arrays,
    missing_values,
    show_hierarchy,
    store,
)

__all__ = [
    "KINDS",
    "ROOT_LABEL",
    "SHOW_LINES",
    "CategoriesInfo",
    "Hierarchy",
    "HierarchyInfo",
    "TaxonomyArrays",
    "build_hierarchy",
    "build_intervals",
    "check_category_ranks",
    "import_categories",
    "import_hierarchy",
    "list_hierarchies",
    "load",
    "load_arrays",
    "missing_values",
    "parse_arx",
    "read_categories",
    "show_categories",
    "show_hierarchy",
    "store",
    "stored_categories",
]
