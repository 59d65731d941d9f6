{#- Included fragment (not a statement): CTEs giving THE tie key of rows. Included in a WITH clause after a CTE
    ldiv_keyed with a BIGINT row key ldiv_k (a row id, or a key made from one: 0 <= ldiv_k < 2^62); ends with
    the CTE ldiv_keys: every column of ldiv_keyed (and the rounds'), plus ldiv_key. The key is ldiv_k through a
    6-round Feistel permutation keyed by the run's private seed $seed: L0, R0 = the high and low 31 bits;
    L(i) = R(i-1), R(i) = L(i-1) xor F_i(R(i-1)), F_i(r) = bits 15..45 of (r xor k_i) * a_i + b_i (a
    multiply-shift hash), k_i = 21 bits of $seed. Distinct row keys get distinct keys, and every order among
    rows that the data leaves tied follows the key, never the source's row ids or row order (DESIGN §6).
    Integer arithmetic only (every product below 2^63), so DuckDB, PostgreSQL and Spark compute the same key
    and order rows alike; each xor and shift sits in a CAST, since the engines rank those operators
    differently against % * +; one round per CTE keeps the statement shallow for the parser. -#}
{% set shifts = [0, 0, 21, 42, 11, 32, 53] %}
{% set mults = [0, 1103515245, 1664525, 22695477, 134775813, 1588635695, 1340134909] %}
{% set adds = [0, 12345, 1013904223, 2531011, 1, 7, 11] %}
ldiv_k0 AS (
    SELECT *, CAST(CAST(ldiv_k AS BIGINT) >> 31 AS BIGINT) AS ldiv_l0, CAST(ldiv_k AS BIGINT) % 2147483648 AS ldiv_r0
    FROM ldiv_keyed
),
{% for i in range(1, 7) %}
{% set l, r = ('ldiv_l' ~ (i - 1)) | ident, ('ldiv_r' ~ (i - 1)) | ident %}
{{ ('ldiv_k' ~ i) | ident }} AS (
    SELECT *, {{ r }} AS {{ ('ldiv_l' ~ i) | ident }},
           CAST(xor({{ l }}, CAST(CAST((CAST(xor({{ r }}, CAST(CAST($seed AS BIGINT) >> {{ shifts[i] }} AS BIGINT) % 2097152) AS BIGINT) * {{ mults[i] }} + {{ adds[i] }}) >> 15 AS BIGINT) % 2147483648 AS BIGINT)) AS BIGINT) AS {{ ('ldiv_r' ~ i) | ident }}
    FROM {{ ('ldiv_k' ~ (i - 1)) | ident }}
),
{% endfor %}
ldiv_keys AS (
    SELECT *, ldiv_l6 * 2147483648 + ldiv_r6 AS ldiv_key FROM ldiv_k6
)
