"""PostgreSQL as an engine (``pip install 'ldiv_db[postgres]'``)."""
