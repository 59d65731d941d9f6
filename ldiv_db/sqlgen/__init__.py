"""SQL generation: the one renderer of ``sql/`` templates, and the translation of the templates'
DuckDB dialect to the other engines' dialects."""
