"""Utility metrics of a release, computed in SQL (SPEC §0.5, §0.7, §5.4): IL/NCP (:mod:`.il`), LM
(:mod:`.lm`), DM/CAVG/CM/stars (:mod:`.groups`), KL-divergence (:mod:`.kl`) and ARX's Loss
(:mod:`.arx_loss`), all resting on the label covers of :mod:`.covers`."""

from .compute import Measured, Metrics, MetricsOptions, compute_metrics

__all__ = ["Measured", "Metrics", "MetricsOptions", "compute_metrics"]
