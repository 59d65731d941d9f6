{#- Included fragment (not a statement): THE tie key of a row — a hash of its row key (the column `keyed`: a row id,
    or a key made from one) mixed with the run's private seed $seed. Every order among rows that the data leaves
    tied follows this key, never the source's row ids or row order (DESIGN §6). Context: keyed (an identifier). -#}
hash(xor(CAST({{ keyed | ident }} AS BIGINT), CAST($seed AS BIGINT)))
