-- purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s), set-based: distinct source points are joined to the distinct release patterns whose region contains them
-- params: none
-- returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite)
-- ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source
{% set src = source | table %}
{% set rel = release | table %}
{% set cov = cover | table %}
WITH pts AS (
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
        FROM {{ src }}
        GROUP BY ALL
    ) AS grouped
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
    SELECT DISTINCT CAST({{ c | ident }} AS VARCHAR) AS v
    FROM {{ src }}
),
sa_cover{{ loop.index }} AS (
    SELECT v AS label, v AS value FROM sa_dom{{ loop.index }}
    UNION ALL
    SELECT CAST(NULL AS VARCHAR) AS label, v AS value FROM sa_dom{{ loop.index }}
    WHERE EXISTS (SELECT 1 FROM {{ rel }} WHERE {{ rsa[loop.index0] | ident }} IS NULL)
),
{% endfor %}
pat AS (
    SELECT
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) AS l{{ loop.index }},
{% endfor %}
{% for c in rsa %}
        CAST({{ c | ident }} AS VARCHAR) AS t{{ loop.index }},
{% endfor %}
        count(*) AS c
    FROM {{ rel }}
    GROUP BY ALL
),
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
hit AS (
    SELECT
{% for c in qi %}
        p.x{{ loop.index }},
{% endfor %}
{% for c in sa %}
        p.s{{ loop.index }},
{% endfor %}
        p.n,
        sum(mass.m) AS fstar
    FROM pts AS p
{% for c in sa %}
    JOIN sa_cover{{ loop.index }} AS sc{{ loop.index }}
        ON sc{{ loop.index }}.value = p.s{{ loop.index }}
{% endfor %}
    JOIN mass ON
{% for c in sa %}
        mass.t{{ loop.index }} IS NOT DISTINCT FROM sc{{ loop.index }}.label{% if not loop.last %} AND{% endif %}

{% else %}
        TRUE
{% endfor %}
{% for c in qi %}
    JOIN {{ cov }} AS c{{ loop.index }}
        ON c{{ loop.index }}.attr = {{ loop.index }}
        AND c{{ loop.index }}.label = mass.l{{ loop.index }}
        AND c{{ loop.index }}.value = p.x{{ loop.index }}
{% endfor %}
    GROUP BY ALL
)
SELECT
    (SELECT sum(hit.n / total.n_source * ln(hit.n / total.n_source / hit.fstar)) FROM hit, total) AS kl,
    (SELECT count(*) FROM pts) AS points,
    (SELECT count(*) FROM pts) - (SELECT count(*) FROM hit) AS uncovered
