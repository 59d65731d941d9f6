"""The re-identification risk figures of a table's classes, from small vectors SQL computed: the
frequency-of-frequencies (how many classes have each size) and, against a population table, how many
classes have each (size in the data, size in the population) pair. Exact fractions throughout.

The attacker models (El Emam & Dankar 2008, "Protecting privacy using k-anonymity", JAMIA 15(5); the
marketer model of El Emam 2013): the *prosecutor* knows the target is in the data and picks a record of
the target's class at random (risk 1/f_j for a class of f_j records); the *journalist* does not know
whether the target is in the data and matches against a population (1/F_j for the population class of F_j
people); the *marketer* tries to re-identify everyone and succeeds on a share Σ_j f_j/F_j / n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Definition:
    """What a figure is, for the user who audits it: its label, formula, the assumption it rests on and
    the paper it comes from."""

    label: str
    formula: str
    assumption: str
    ref: str


EL_EMAM_2008 = "El Emam & Dankar 2008, Protecting privacy using k-anonymity, JAMIA 15(5)"
DANKAR_2012 = (
    "Dankar, El Emam, Neisa & Roffey 2012, Estimating the re-identification risk of clinical data sets, "
    "BMC Med Inform Decis Mak 12:66"
)
SAME = "the population is the data set (the attacker knows the target is in it)"

DEFINITIONS: dict[str, Definition] = {
    "prosecutor_highest": Definition(
        "prosecutor risk, highest", "max_j 1/f_j = 1/k (f_j: records in class j)", SAME, EL_EMAM_2008
    ),
    "prosecutor_average": Definition(
        "prosecutor risk, average per record",
        "(1/n)·Σ_records 1/f_j = J/n (J classes, n records)",
        SAME,
        EL_EMAM_2008,
    ),
    "prosecutor_above": Definition(
        "records with prosecutor risk above the threshold",
        "(1/n)·Σ_{j: 1/f_j > τ} f_j",
        SAME,
        EL_EMAM_2008,
    ),
    "journalist_highest": Definition(
        "journalist risk, highest",
        "max_j 1/F_j (F_j: people in the population with class j's QI values)",
        "the attacker matches against a population that contains the data; without a population table "
        "F_j ≥ f_j is all that is known, so the prosecutor's figure is its upper bound",
        EL_EMAM_2008,
    ),
    "journalist_average": Definition(
        "journalist risk, average per record",
        "(1/n)·Σ_j f_j/F_j",
        "as for journalist risk, highest",
        EL_EMAM_2008,
    ),
    "journalist_above": Definition(
        "records with journalist risk above the threshold",
        "(1/n)·Σ_{j: 1/F_j > τ} f_j",
        "as for journalist risk, highest",
        EL_EMAM_2008,
    ),
    "marketer": Definition(
        "marketer risk (share of records re-identified when every record is matched)",
        "(1/n)·Σ_j f_j/F_j; without a population table J/n",
        "the attacker matches every record against the population (a population table), or against the "
        "data set itself (then it equals the prosecutor's average)",
        "El Emam 2013, Guide to the De-Identification of Personal Health Information, ch. 15; "
        + EL_EMAM_2008,
    ),
    "sample_uniques": Definition(
        "sample uniques (records alone in their class)",
        "F_1/n (F_1: classes of one record)",
        "none: a count in the data",
        "Skinner & Elliot 2002, A measure of disclosure risk for microdata, JRSS B 64(4)",
    ),
    "population_uniques": Definition(
        "population uniqueness, exact",
        "(population classes of one person)/N",
        "the population table is the whole population",
        "Dankar et al. 2012 (the quantity the estimators estimate)",
    ),
    "pitman": Definition(
        "population uniqueness, Pitman",
        "Û/N, Û = Γ(θ+1)/Γ(θ+α)·N^α at the maximum-likelihood (θ, α) of Pitman's sampling formula",
        "the data is a simple random sample of N people; class sizes follow Pitman's two-parameter "
        "(θ, α) partition model",
        "Pitman 1996; Hoshino 2001, Applying Pitman's sampling formula to microdata disclosure risk "
        "assessment, J. Official Statistics 17(4)",
    ),
    "zayatz": Definition(
        "population uniqueness, Zayatz",
        "Û/N, Û = F_1·P(F=1|f=1)·N/n, P(F=1|f=1) = F_1·P(f=1|F=1) / Σ_i F_i·P(f=1|F=i), P(f=1|F=i) "
        "hypergeometric",
        "the data is a simple random sample of N people; the population's class sizes are distributed "
        "as the sample's",
        "Zayatz 1991, Estimation of the percent of unique population elements on a microdata file using "
        "the sample, US Census Bureau SRD Report 91/08",
    ),
    "snb": Definition(
        "population uniqueness, SNB (slide negative binomial)",
        "Û/N, Û = K·β^α with K by Shlosser's estimator and (α, β) matching E[F_1], E[F_2] to the sample",
        "records are sampled independently with probability π = n/N; population class sizes are 1 + "
        "negative binomial(α, β)",
        "Chen & Keller-McNulty 1998, Estimation of identification disclosure risk in microdata, "
        "J. Official Statistics 14(1)",
    ),
    "dankar": Definition(
        "population uniqueness, Dankar's rule",
        "π ≤ 0.1: Pitman (Zayatz where Pitman has none); π > 0.1: min(Zayatz, SNB) (Zayatz where SNB has none)",
        "as the model it picks (its assumption above)",
        DANKAR_2012,
    ),
    "qi_contribution": Definition(
        "sample uniques a QI adds",
        "(F_1 with all keys − F_1 with the keys but this QI)/n",
        SAME,
        "the per-attribute contribution of ARX's and sdcMicro's risk analyses",
    ),
}


@dataclass(frozen=True)
class Risks:
    """Highest risk, average risk per record and the share of records above the threshold."""

    highest: Fraction
    average: Fraction
    above: Fraction


def prosecutor(fof: Mapping[int, int], threshold: Fraction) -> Risks:
    """Prosecutor risk from the frequency-of-frequencies {size: classes}."""
    n = sum(s * c for s, c in fof.items())
    if not n:
        return Risks(Fraction(0), Fraction(0), Fraction(0))
    above = sum(s * c for s, c in fof.items() if Fraction(1, s) > threshold)
    return Risks(
        Fraction(1, min(s for s, c in fof.items() if c)), Fraction(sum(fof.values()), n), Fraction(above, n)
    )


def journalist(pairs: Mapping[tuple[int, int], int], threshold: Fraction) -> Risks:
    """Journalist risk from {(size in the data, size in the population): classes} (every F ≥ f ≥ 1)."""
    n = sum(f * c for (f, _), c in pairs.items())
    if not n:
        return Risks(Fraction(0), Fraction(0), Fraction(0))
    average = sum((Fraction(f * c, big) for (f, big), c in pairs.items()), Fraction(0)) / n
    above = sum(f * c for (f, big), c in pairs.items() if Fraction(1, big) > threshold)
    return Risks(Fraction(1, min(big for (_, big), c in pairs.items() if c)), average, Fraction(above, n))


def sample_uniques(fof: Mapping[int, int]) -> int:
    """Records alone in their class: F_1."""
    return fof.get(1, 0)


def qi_contribution(all_keys: Mapping[int, int], without: Sequence[Mapping[int, int]]) -> list[int]:
    """Per dropped QI, the sample uniques that dropping it removes: F_1(all keys) − F_1(keys without it)."""
    base = sample_uniques(all_keys)
    return [base - sample_uniques(w) for w in without]
