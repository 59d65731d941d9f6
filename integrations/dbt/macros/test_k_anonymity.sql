{#- k-anonymity: every class holds at least k rows. Fails with the classes below k as its rows. -#}
{% test k_anonymity(model, qi, k) %}
with ldiv_classes as (
{{ ldiv_db.class_stats_sql(model, qi, qi[0]) }}
)
select {{ ldiv_db.idents(qi) }}, class_size
from ldiv_classes
where class_size < {{ k | int }}
{% endtest %}
