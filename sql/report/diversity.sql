-- purpose: per-class SA diversity of a published table as three distributions: classes by distinct SA count, by entropy l (binned), and by the highest value confidence (binned); NULL SA values (suppressed) count in |G| but are no value
-- params: entropy_width, confidence_bins
-- returns: measure ('distinct' | 'entropy' | 'confidence'), bin, classes, rows, lo, hi (distinct: bin = the count; entropy: bin b covers [b·width, (b+1)·width) of exp(H); confidence: bin b covers ((b−1)/bins, b/bins] of max n/|G|, computed exactly on integers; lo/hi = the smallest and largest value inside the bin)
-- ref: SPEC §1 (distinct, entropy l = exp(−Σ p ln p), natural log), §2 (confidence = the attacker's best-guess probability)
WITH cells AS (
    SELECT {{ keys | idents }}, {{ sa | ident }} AS v, count(*) AS n
    FROM {{ source | table }}
    GROUP BY ALL
), per_class AS (
    SELECT sum(n) AS size,
           count(*) FILTER (WHERE v IS NOT NULL) AS n_distinct,
           coalesce(max(n) FILTER (WHERE v IS NOT NULL), 0) AS top,
           exp(-coalesce(sum((CAST(n AS DOUBLE) / size_all) * ln(CAST(n AS DOUBLE) / size_all))
               FILTER (WHERE v IS NOT NULL), 0)) AS entropy_l
    FROM (SELECT *, sum(n) OVER (PARTITION BY {{ keys | idents }}) AS size_all FROM cells)
    GROUP BY {{ keys | idents }}
), binned AS (
    SELECT size, n_distinct, entropy_l,
           CAST(top AS DOUBLE) / size AS confidence,
           CAST(floor(entropy_l / $entropy_width) AS BIGINT) AS entropy_bin,
           CAST((top * $confidence_bins + size - 1) // size AS BIGINT) AS confidence_bin
    FROM per_class
)
SELECT 'distinct' AS measure, n_distinct AS bin, count(*) AS classes, sum(size) AS rows,
       CAST(min(n_distinct) AS DOUBLE) AS lo, CAST(max(n_distinct) AS DOUBLE) AS hi
FROM binned GROUP BY n_distinct
UNION ALL
SELECT 'entropy', entropy_bin, count(*), sum(size), min(entropy_l), max(entropy_l)
FROM binned GROUP BY entropy_bin
UNION ALL
SELECT 'confidence', confidence_bin, count(*), sum(size), min(confidence), max(confidence)
FROM binned GROUP BY confidence_bin
ORDER BY measure, bin
