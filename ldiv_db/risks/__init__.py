"""Re-identification risk (``ldiv risk`` and the report's risk section): the prosecutor, journalist and
marketer models, sample uniques, population-uniqueness estimates and each QI's contribution."""

from __future__ import annotations

from .command import risk
from .result import RiskResult

__all__ = ["RiskResult", "risk"]
