-- purpose: #MinRm per group and value: the fewest rows of value v to delete so that v is no longer violated, ceil((q·n_v - p·n)/(q - p)) exactly
-- params: p_default, q_default
-- returns: gid, s, v, n, size, min_rm (violated values only)
-- ref: SPEC §5.7 Lemma 3, §0.3 (T-FRAC: theta 0.9, n = n_v = 10 gives 10)
WITH {% include "_macros/threshold_cells.sql" %}

SELECT gid, s, v, n, size,
       CAST((q * n - p * size + (q - p) - 1) // (q - p) AS BIGINT) AS min_rm  -- ceiling division; q > p when violated
FROM c
WHERE n * q > p * size
ORDER BY gid, s, v
