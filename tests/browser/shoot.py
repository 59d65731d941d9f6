"""Screenshots for the README: ``python -m tests.browser.shoot PAGE.html OUT.png [--height 1500]``.

Opens the page in headless Chromium (offline, like the browser test), keeps the top ``--height`` pixels
and stores the PNG with a reduced palette so that it stays small (the README's images are ≤ 300 KB)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PIL import Image

from .chromium import open_page


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.browser.shoot")
    p.add_argument("page", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--height", type=int, default=1500)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        full = Path(tmp) / "full.png"
        view = open_page(args.page, full)
        if view.console or view.requests:
            print(f"console {view.console}, requests {view.requests}", file=sys.stderr)
            return 1
        img = Image.open(full).convert("RGB")
        img = img.crop((0, 0, img.width, min(img.height, args.height)))
        img.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(args.out, optimize=True)
    print(f"{args.out}: {args.out.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
