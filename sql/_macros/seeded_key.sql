{#- Included fragment (not a statement): THE tie key of a row — a hash of its row id (or of the column `keyed`,
    a row key of that kind) mixed with the run's private seed $seed. Every order among rows that the data
    leaves tied follows this key, never the source's row ids or row order (DESIGN §6). Context: keyed
    (optional: an identifier; default the row's rowid). -#}
hash(xor(CAST({% if keyed is defined and keyed is not none %}{{ keyed | ident }}{% else %}rowid{% endif %} AS BIGINT), CAST($seed AS BIGINT)))
