/* purpose: what group forming and noise read: per pool row its key, arrival and SA values as text, in the order of the seeded tie key of the row key */
/* params: seed */
/* returns: rk, arrived, s1..sk (VARCHAR) ordered by the seeded key of rk (keyed: the identifier rk) */
/* ref: SPEC §0.6 (first-appearance order of the primary values follows the row order); DESIGN §6 (ties are broken by a seeded key, never by the source's row order: the row key is the source row id plus an offset); _macros/seeded_key.sql; DESIGN §5 */
SELECT
  rk,
  arrived,
  CAST("c6" AS TEXT) AS "s1",
  CAST("c7" AS TEXT) AS "s2"
FROM "pg_temp"."wk dec pool's"
ORDER BY
  (
    HASHTEXTEXTENDED(
      (
        COALESCE(
          CAST(LENGTH(
            CAST(CAST("rk" AS BIGINT) # CAST((
              CAST(%(seed)s AS BIGINT)
            ) AS BIGINT) AS TEXT)
          ) AS TEXT) || ':' || CAST(CAST("rk" AS BIGINT) # CAST((
            CAST(%(seed)s AS BIGINT)
          ) AS BIGINT) AS TEXT),
          'N'
        )
      ),
      0
    ) & 9223372036854775807
  ),
  rk
