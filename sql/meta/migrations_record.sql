-- purpose: record migrations that ran, several in one statement (on an engine without transactions, after the last of them ran)
-- params: versions, names, checksums
-- returns: inserts one row per migration into ldiv.schema_migration (the three lists: one entry per migration, in order)
-- ref: ldiv_db/db/spark/schema.py (prepare_spark); ldiv_db/schema/migrate.py (BOOKKEEPING)
INSERT INTO ldiv.schema_migration (version, name, checksum, applied_at)
VALUES
{% for i in range(1, count + 1) %}
    ($versions[{{ i }}], $names[{{ i }}], $checksums[{{ i }}], current_timestamp){% if not loop.last %},{% endif %}

{% endfor %}
