"""Apache Spark as an engine (``pip install 'ldiv_db[spark]'``)."""
