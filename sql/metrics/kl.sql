-- purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s); the (source point, release pattern) containment join runs one attribute per stage against the trie of pattern prefixes
-- params: none
-- returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite)
-- ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source
{#
  Containment join of the distinct source points (p = row number; SA values s, values x1..xd) with the
  distinct release patterns (SA labels t, labels l1..ld, mass m), attribute by attribute:
  * the patterns form a trie: q<i> numbers the distinct label prefixes (t, l1..li), by a running count
    of "prefix changes here" over the patterns sorted once (pm);
  * stage st<i>(p, q) holds every point p with every label prefix q of length i whose labels cover
    p's values; lab<i> extends st<i-1> by the labels covering x<i>, st<i> keeps the prefixes that
    occur in the release.
  Each stage is materialized, so the optimizer cannot reorder the joins into the product of all
  per-attribute matches (which explodes on local-recoding releases): stage sizes stay bounded by the
  (point, pattern-prefix) pairs that are still compatible.
#}
{% set d = qi | length %}
{% set cov = cover | table %}
WITH pts AS (
    SELECT
{% for c in qi %}
        CAST({{ c | ident }} AS VARCHAR) AS x{{ loop.index }},
{% endfor %}
{% for c in sa %}
        CAST({{ c | ident }} AS VARCHAR) AS s{{ loop.index }},
{% endfor %}
        count(*) AS n
    FROM {{ source | table }}
    GROUP BY ALL
),
pv AS MATERIALIZED (
    SELECT *, row_number() OVER () AS p
    FROM pts
),
total AS (
    SELECT CAST(sum(n) AS DOUBLE) AS n_source FROM pv
),
pat AS (
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
    SELECT DISTINCT s{{ loop.index }} AS v FROM pv
),
sa_cover{{ loop.index }} AS (
    SELECT v AS label, v AS value FROM sa_dom{{ loop.index }}
    UNION ALL
    SELECT CAST(NULL AS VARCHAR) AS label, v AS value FROM sa_dom{{ loop.index }}
    WHERE EXISTS (SELECT 1 FROM pat WHERE pat.t{{ loop.index }} IS NULL)
),
{% endfor %}
pat_changes AS (
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
        ) AS m,
{% for c in rsa %}
        (lag(pat.t{{ loop.index }}) OVER w IS DISTINCT FROM pat.t{{ loop.index }}){% if not loop.last %} OR{% endif %}

{% else %}
        FALSE
{% endfor %}
        AS c0,
{% for c in rqi %}
        lag(pat.l{{ loop.index }}) OVER w IS DISTINCT FROM pat.l{{ loop.index }} AS c{{ loop.index }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM pat
{% for c in rqi %}
    JOIN ncov AS k{{ loop.index }}
        ON k{{ loop.index }}.attr = {{ loop.index }}
        AND k{{ loop.index }}.label = pat.l{{ loop.index }}
{% endfor %}
    WINDOW w AS (ORDER BY {% for c in rsa %}pat.t{{ loop.index }}, {% endfor %}{% for c in rqi %}pat.l{{ loop.index }}{% if not loop.last %}, {% endif %}{% endfor %})
),
pm AS MATERIALIZED (
    SELECT
        l1{% for c in rqi[1:] %}, l{{ loop.index + 1 }}{% endfor %}{% for c in rsa %}, t{{ loop.index }}{% endfor %}, m,
        sum(CAST(c0 AS INTEGER)) OVER w AS q0,
{% for c in rqi %}
        sum(CAST(c0{% for j in range(1, loop.index + 1) %} OR c{{ j }}{% endfor %} AS INTEGER)) OVER w AS q{{ loop.index }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM pat_changes
    WINDOW w AS (
        ORDER BY {% for c in rsa %}t{{ loop.index }}, {% endfor %}{% for c in rqi %}l{{ loop.index }}{% if not loop.last %}, {% endif %}{% endfor %}

        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
),
st0 AS MATERIALIZED (
{% if sa %}
    SELECT pv.p, w.q0 AS q
    FROM pv
{% for c in sa %}
    JOIN sa_cover{{ loop.index }} AS sc{{ loop.index }} ON sc{{ loop.index }}.value = pv.s{{ loop.index }}
{% endfor %}
    JOIN (SELECT DISTINCT q0{% for c in sa %}, t{{ loop.index }}{% endfor %} FROM pm) AS w
        ON {% for c in sa %}w.t{{ loop.index }} IS NOT DISTINCT FROM sc{{ loop.index }}.label{% if not loop.last %} AND {% endif %}{% endfor %}

{% else %}
    SELECT pv.p, w.q0 AS q
    FROM pv
    CROSS JOIN (SELECT DISTINCT q0 FROM pm) AS w
{% endif %}
),
{% for c in qi %}
{% set i = loop.index %}
lab{{ i }} AS MATERIALIZED (
    SELECT st.p, st.q, cv.label
    FROM st{{ i - 1 }} AS st
    JOIN pv ON pv.p = st.p
    JOIN {{ cov }} AS cv ON cv.attr = {{ i }} AND cv.value = pv.x{{ i }}
),
st{{ i }} AS MATERIALIZED (
    SELECT b.p, lt.q
    FROM lab{{ i }} AS b
    JOIN (SELECT DISTINCT q{{ i - 1 }} AS qq, q{{ i }} AS q, l{{ i }} AS l FROM pm) AS lt
        ON lt.qq = b.q AND lt.l = b.label
),
{% endfor %}
hit AS (
    SELECT st.p, sum(pm.m) AS fstar
    FROM st{{ d }} AS st
    JOIN pm ON pm.q{{ d }} = st.q
    GROUP BY st.p
)
SELECT
    (
        SELECT sum(pv.n / total.n_source * ln(pv.n / total.n_source / hit.fstar))
        FROM hit
        JOIN pv ON pv.p = hit.p
        CROSS JOIN total
    ) AS kl,
    (SELECT count(*) FROM pv) AS points,
    (SELECT count(*) FROM pv) - (SELECT count(*) FROM hit) AS uncovered
