-- purpose: the empty table of BSGI's parts plan: per SA bucket and part, the half-open range of the bucket's row ranks the part takes
-- params: none
-- returns: creates target(b, part, lo, hi)
-- ref: ldiv_db/algorithms/bsgi/refine/parts.py (the plan); sql/bsgi/parts.sql reads it
{{ target | create_table }} (b BIGINT, part BIGINT, lo BIGINT, hi BIGINT)
