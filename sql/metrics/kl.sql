-- purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s); the (source point, release pattern) containment join runs as a trie join, one attribute per materialized stage
-- params: none
-- returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite)
-- ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source
{#
  Stage i pairs a distinct prefix (SA values, x1..xi) of the source points with a distinct prefix
  (SA labels, l1..li) of the release patterns such that every xj lies in the cover of lj. Each stage
  only extends pairs that exist, so its size is bounded by the compatible prefixes (not by the product of
  per-attribute matches, which explodes on local-recoding releases). "o" is a constant join key so the
  join conditions are never empty.
#}
{% set src = source | table %}
{% set rel = release | table %}
{% set cov = cover | table %}
WITH pts AS MATERIALIZED (
    SELECT
{% for c in qi %}
        CAST(x{{ loop.index }} AS VARCHAR) AS x{{ loop.index }},
{% endfor %}
{% for c in sa %}
        CAST(s{{ loop.index }} AS VARCHAR) AS s{{ loop.index }},
{% endfor %}
        1 AS o,
        n
    FROM (
        SELECT
{% for c in qi %}
            {{ c | ident }} AS x{{ loop.index }},
{% endfor %}
{% for c in sa %}
            {{ c | ident }} AS s{{ loop.index }},
{% endfor %}
            count(*) AS n
        FROM {{ src }}
        GROUP BY ALL
    ) AS grouped
),
pat AS MATERIALIZED (
    SELECT
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) AS l{{ loop.index }},
{% endfor %}
{% for c in rsa %}
        CAST({{ c | ident }} AS VARCHAR) AS t{{ loop.index }},
{% endfor %}
        1 AS o,
        count(*) AS c
    FROM {{ rel }}
    GROUP BY ALL
),
total AS (
    SELECT CAST(sum(n) AS DOUBLE) AS n_source FROM pts
),
ncov AS (
    SELECT attr, label, count(*) AS n_cover
    FROM {{ cov }}
    GROUP BY attr, label
),
{% for c in sa %}
sa_dom{{ loop.index }} AS (
    SELECT DISTINCT s{{ loop.index }} AS v FROM pts
),
sa_cover{{ loop.index }} AS (
    SELECT v AS label, v AS value FROM sa_dom{{ loop.index }}
    UNION ALL
    SELECT CAST(NULL AS VARCHAR) AS label, v AS value FROM sa_dom{{ loop.index }}
    WHERE EXISTS (SELECT 1 FROM pat WHERE pat.t{{ loop.index }} IS NULL)
),
{% endfor %}
mass AS (
    SELECT
        pat.*,
        pat.c / (SELECT CAST(sum(c) AS DOUBLE) FROM pat) / (
            CAST(1 AS DOUBLE)
{% for c in rqi %}
            * k{{ loop.index }}.n_cover
{% endfor %}
{% for c in rsa %}
            * CASE WHEN pat.t{{ loop.index }} IS NULL
                   THEN (SELECT count(*) FROM sa_dom{{ loop.index }}) ELSE 1 END
{% endfor %}
        ) AS m
    FROM pat
{% for c in rqi %}
    JOIN ncov AS k{{ loop.index }}
        ON k{{ loop.index }}.attr = {{ loop.index }}
        AND k{{ loop.index }}.label = pat.l{{ loop.index }}
{% endfor %}
),
st0 AS MATERIALIZED (
    SELECT
        v.o{% for c in sa %}, v.s{{ loop.index }}, sc{{ loop.index }}.label AS t{{ loop.index }}{% endfor %}

    FROM (SELECT DISTINCT o{% for c in sa %}, s{{ loop.index }}{% endfor %} FROM pts) AS v
{% for c in sa %}
    JOIN sa_cover{{ loop.index }} AS sc{{ loop.index }} ON sc{{ loop.index }}.value = v.s{{ loop.index }}
{% endfor %}
    JOIN (SELECT DISTINCT o{% for c in sa %}, t{{ loop.index }}{% endfor %} FROM pat) AS q
        ON q.o = v.o
{% for c in sa %}
        AND q.t{{ loop.index }} IS NOT DISTINCT FROM sc{{ loop.index }}.label
{% endfor %}
),
{% for c in qi %}
{% set i = loop.index %}
st{{ i }} AS MATERIALIZED (
    SELECT st.*, v.x{{ i }}, cv.label AS l{{ i }}
    FROM st{{ i - 1 }} AS st
    JOIN (
        SELECT DISTINCT o{% for c in sa %}, s{{ loop.index }}{% endfor %}{% for j in range(1, i + 1) %}, x{{ j }}{% endfor %}

        FROM pts
    ) AS v
        ON v.o = st.o
{% for c in sa %}
        AND v.s{{ loop.index }} = st.s{{ loop.index }}
{% endfor %}
{% for j in range(1, i) %}
        AND v.x{{ j }} = st.x{{ j }}
{% endfor %}
    JOIN {{ cov }} AS cv ON cv.attr = {{ i }} AND cv.value = v.x{{ i }}
    JOIN (
        SELECT DISTINCT o{% for c in sa %}, t{{ loop.index }}{% endfor %}{% for j in range(1, i + 1) %}, l{{ j }}{% endfor %}

        FROM pat
    ) AS q
        ON q.o = st.o AND q.l{{ i }} = cv.label
{% for c in sa %}
        AND q.t{{ loop.index }} IS NOT DISTINCT FROM st.t{{ loop.index }}
{% endfor %}
{% for j in range(1, i) %}
        AND q.l{{ j }} = st.l{{ j }}
{% endfor %}
),
{% endfor %}
hit AS (
    SELECT
{% for c in qi %}
        st.x{{ loop.index }},
{% endfor %}
{% for c in sa %}
        st.s{{ loop.index }},
{% endfor %}
        sum(mass.m) AS fstar
    FROM st{{ qi | length }} AS st
    JOIN mass
        ON mass.o = st.o
{% for c in qi %}
        AND mass.l{{ loop.index }} = st.l{{ loop.index }}
{% endfor %}
{% for c in sa %}
        AND mass.t{{ loop.index }} IS NOT DISTINCT FROM st.t{{ loop.index }}
{% endfor %}
    GROUP BY ALL
)
SELECT
    (
        SELECT sum(p.n / total.n_source * ln(p.n / total.n_source / hit.fstar))
        FROM hit
        JOIN pts AS p
            ON p.o = 1
{% for c in qi %}
            AND p.x{{ loop.index }} = hit.x{{ loop.index }}
{% endfor %}
{% for c in sa %}
            AND p.s{{ loop.index }} = hit.s{{ loop.index }}
{% endfor %}
        CROSS JOIN total
    ) AS kl,
    (SELECT count(*) FROM pts) AS points,
    (SELECT count(*) FROM pts) - (SELECT count(*) FROM hit) AS uncovered
