from __future__ import annotations

import io

from ldiv_db.util.progress import Progress


def test_silent_before_the_delay_and_when_quiet() -> None:
    out = io.StringIO()
    p = Progress("job", stream=out, delay=60)
    p.update(1, 2, "half")
    p.done()
    assert out.getvalue() == ""
    q = Progress("job", stream=out, delay=0, quiet=True)
    q.update(1, 2)
    assert out.getvalue() == ""


def test_lines_after_the_delay() -> None:
    out = io.StringIO()
    p = Progress("job", stream=out, delay=0)
    p.update(1, 4, "a quarter")
    p.done("all")
    text = out.getvalue()
    assert "job [" in text and "25.0%" in text and "a quarter" in text and "job done all" in text
