"""mkdocs hook: before every build, write the generated reference pages (docs/gen_reference.py), so the
site's reference is always the code's, and the benchmarks page from bench/README.md (its one source)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

_GEN = Path(__file__).with_name("gen_reference.py")


def on_pre_build(config: Any) -> None:
    spec = importlib.util.spec_from_file_location("ldiv_docs_gen_reference", _GEN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    docs = Path(config["docs_dir"])
    module.write(docs / "reference")
    bench = (_GEN.parents[1] / "bench" / "README.md").read_text(encoding="utf-8")
    # links into bench/ (results files) are not pages of the site: keep their text, name the path
    bench = re.sub(r"\[([^\]]+)\]\((?!https?:|#)([^)]+)\)", r"\1 (`bench/\2`)", bench)
    page = docs / "benchmarks.md"
    if not page.exists() or page.read_text(encoding="utf-8") != bench:
        page.write_text(bench, encoding="utf-8")
