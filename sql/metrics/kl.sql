-- purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s); the (source point, release pattern) containment join runs as a trie join over prefix ids, one attribute per stage
-- params: none
-- returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite)
-- ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source
{#
  Points (distinct source rows: SA values, x1..xd) and patterns (distinct release rows: SA labels,
  l1..ld) are organised as tries. vt<i>(pp, x, p) numbers the distinct value prefixes (SA, x1..xi) as
  children of their parent prefix; lt<i>(qq, l, q) does the same for label prefixes (SA labels, l1..li).
  Stage st<i>(p, q) holds the prefix pairs whose every xj lies in the cover of lj: it extends st<i-1>
  by the next value (ext<i>), the labels covering it (lab<i>), and keeps the label prefixes that occur in
  the release (st<i>). Every step is a materialized two-way join on integer ids, so the optimizer cannot
  reorder them into the product of all per-attribute matches (which explodes on local-recoding
  releases); stage sizes stay bounded by the compatible prefix pairs.
#}
{% set d = qi | length %}
{% set cov = cover | table %}
WITH pts AS MATERIALIZED (
    SELECT
{% for c in qi %}
        CAST(x{{ loop.index }} AS VARCHAR) AS x{{ loop.index }},
{% endfor %}
{% for c in sa %}
        CAST(s{{ loop.index }} AS VARCHAR) AS s{{ loop.index }},
{% endfor %}
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
        FROM {{ source | table }}
        GROUP BY ALL
    ) AS grouped
),
total AS (
    SELECT CAST(sum(n) AS DOUBLE) AS n_source FROM pts
),
pat AS MATERIALIZED (
    SELECT
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) AS l{{ loop.index }},
{% endfor %}
{% for c in rsa %}
        CAST({{ c | ident }} AS VARCHAR) AS t{{ loop.index }},
{% endfor %}
        count(*) AS c
    FROM {{ release | table }}
    GROUP BY ALL
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
{% if sa %}
vt0 AS MATERIALIZED (
    SELECT *, row_number() OVER () AS p
    FROM (SELECT DISTINCT {% for c in sa %}s{{ loop.index }}{% if not loop.last %}, {% endif %}{% endfor %} FROM pts) AS dd
),
pv0 AS MATERIALIZED (
    SELECT pts.*, vt0.p AS p0
    FROM pts
    JOIN vt0 ON {% for c in sa %}vt0.s{{ loop.index }} = pts.s{{ loop.index }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
lt0 AS MATERIALIZED (
    SELECT *, row_number() OVER () AS q
    FROM (SELECT DISTINCT {% for c in sa %}t{{ loop.index }}{% if not loop.last %}, {% endif %}{% endfor %} FROM mass) AS dd
),
pm0 AS MATERIALIZED (
    SELECT mass.*, lt0.q AS q0
    FROM mass
    JOIN lt0 ON {% for c in sa %}lt0.t{{ loop.index }} IS NOT DISTINCT FROM mass.t{{ loop.index }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
st0 AS MATERIALIZED (
    SELECT DISTINCT vt0.p, lt0.q
    FROM vt0
{% for c in sa %}
    JOIN sa_cover{{ loop.index }} AS sc{{ loop.index }} ON sc{{ loop.index }}.value = vt0.s{{ loop.index }}
{% endfor %}
    JOIN lt0 ON {% for c in sa %}lt0.t{{ loop.index }} IS NOT DISTINCT FROM sc{{ loop.index }}.label{% if not loop.last %} AND {% endif %}{% endfor %}

),
{% else %}
pv0 AS (SELECT pts.*, 1 AS p0 FROM pts),
pm0 AS (SELECT mass.*, 1 AS q0 FROM mass),
st0 AS (SELECT 1 AS p, 1 AS q),
{% endif %}
{% for c in qi %}
{% set i = loop.index %}
vt{{ i }} AS MATERIALIZED (
    SELECT pp, x, row_number() OVER () AS p
    FROM (SELECT DISTINCT p{{ i - 1 }} AS pp, x{{ i }} AS x FROM pv{{ i - 1 }}) AS dd
),
pv{{ i }} AS MATERIALIZED (
    SELECT pv{{ i - 1 }}.*, vt{{ i }}.p AS p{{ i }}
    FROM pv{{ i - 1 }}
    JOIN vt{{ i }} ON vt{{ i }}.pp = pv{{ i - 1 }}.p{{ i - 1 }} AND vt{{ i }}.x = pv{{ i - 1 }}.x{{ i }}
),
lt{{ i }} AS MATERIALIZED (
    SELECT qq, l, row_number() OVER () AS q
    FROM (SELECT DISTINCT q{{ i - 1 }} AS qq, l{{ i }} AS l FROM pm{{ i - 1 }}) AS dd
),
pm{{ i }} AS MATERIALIZED (
    SELECT pm{{ i - 1 }}.*, lt{{ i }}.q AS q{{ i }}
    FROM pm{{ i - 1 }}
    JOIN lt{{ i }} ON lt{{ i }}.qq = pm{{ i - 1 }}.q{{ i - 1 }} AND lt{{ i }}.l = pm{{ i - 1 }}.l{{ i }}
),
ext{{ i }} AS MATERIALIZED (
    SELECT vt{{ i }}.p, st.q, vt{{ i }}.x
    FROM st{{ i - 1 }} AS st
    JOIN vt{{ i }} ON vt{{ i }}.pp = st.p
),
lab{{ i }} AS MATERIALIZED (
    SELECT e.p, e.q, cv.label
    FROM ext{{ i }} AS e
    JOIN {{ cov }} AS cv ON cv.attr = {{ i }} AND cv.value = e.x
),
st{{ i }} AS MATERIALIZED (
    SELECT b.p, lt{{ i }}.q
    FROM lab{{ i }} AS b
    JOIN lt{{ i }} ON lt{{ i }}.qq = b.q AND lt{{ i }}.l = b.label
),
{% endfor %}
hit AS (
    SELECT st.p, sum(pm{{ d }}.m) AS fstar
    FROM st{{ d }} AS st
    JOIN pm{{ d }} ON pm{{ d }}.q{{ d }} = st.q
    GROUP BY st.p
)
SELECT
    (
        SELECT sum(pv{{ d }}.n / total.n_source * ln(pv{{ d }}.n / total.n_source / hit.fstar))
        FROM hit
        JOIN pv{{ d }} ON pv{{ d }}.p{{ d }} = hit.p
        CROSS JOIN total
    ) AS kl,
    (SELECT count(*) FROM pts) AS points,
    (SELECT count(*) FROM pts) - (SELECT count(*) FROM hit) AS uncovered
