{#- Included fragment (not a statement): a stream row's key as text, the JSON array of the text forms of the
    key columns of the row aliased src (a NULL stays null): ["17"] or ["Ann","1990-01-02"]. Its md5 is the
    key the stream stores. Context: key (identifiers). -#}
CAST(to_json([{% for c in key %}CAST(src.{{ c | ident }} AS VARCHAR){% if not loop.last %}, {% endif %}{% endfor %}]) AS VARCHAR)
