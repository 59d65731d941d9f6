"""ldiv_db/util/words.py: one name per model, one unit per figure (issue 52's examples)."""

from __future__ import annotations

from fractions import Fraction

from ldiv_db.privacy.distinct import Distinct
from ldiv_db.privacy.recursive import Recursive
from ldiv_db.util.words import COUNTS, METRICS, model_phrase, show


def test_model_phrase_names_every_parameter_c_first() -> None:
    assert model_phrase("recursive", {"l": [4], "c": "3"}) == "recursive (c=3, l=4)"
    assert model_phrase("distinct", {"l": [4, 3]}) == "distinct (l=(4, 3))"
    assert model_phrase("k-anonymity", {"k": 5}) == "k-anonymity (k=5)"
    assert model_phrase("distinct", None) == "distinct"


def test_describe_is_the_phrase() -> None:
    """Every command names a model by PrivacyModel.describe: the same words."""
    assert Recursive((4,), 3).describe() == "recursive (c=3, l=4)"
    assert Distinct((4, 3)).describe() == "distinct (l=(4, 3))"


def test_one_unit_per_figure() -> None:
    # NCP was 0.08464 on one page and 8.46 % on the other
    assert show("ncp", 0.08464) == "8.46 %" and show("ncp", Fraction(8464, 100000)) == "8.46 %"
    assert show("risk", 0.25) == "25.00 %"
    assert show("dm", 1365448.0) == "1,365,448" and show("cells_suppressed", 14136) == "14,136"
    assert show("max_confidence", 0.25) == "0.25" and show("kl", 1.390251) == "1.39"
    assert show("seconds", 1.234) == "1.23 s"
    assert show("stars", None) == "n/a" and show("kl", None) == "n/a"


def test_suppressed_is_said_of_cells_only() -> None:
    labels = [*COUNTS.values(), *(m.label for m in METRICS.values()), *(m.help for m in METRICS.values())]
    for text in labels:
        assert "rows suppressed" not in text and "suppressed rows" not in text, text
    assert "suppressed" in COUNTS["cells_suppressed"] and "deleted" in COUNTS["rows_deleted"]
