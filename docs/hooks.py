"""mkdocs hook: write the generated reference pages (docs/gen_reference.py) before every build, so the
site's reference is always the code's."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_GEN = Path(__file__).with_name("gen_reference.py")


def on_pre_build(config: Any) -> None:
    spec = importlib.util.spec_from_file_location("ldiv_docs_gen_reference", _GEN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write(Path(config["docs_dir"]) / "reference")
