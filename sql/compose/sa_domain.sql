-- purpose: the SA values the attacker knows to exist: the source's distinct non-NULL SA values, as text
-- params: none
-- returns: creates target(sa)
-- ref: docs/decisions/0001-composition-check.md (a release that tells nothing about a target leaves it every value; a published unknown SA stands for every value)
{{ target | create_table }} AS
SELECT DISTINCT CAST({{ sa | ident }} AS VARCHAR) AS sa
FROM {{ source | table }}
WHERE {{ sa | ident }} IS NOT NULL
