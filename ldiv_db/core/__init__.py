"""The domain over a database: the catalog (names), the resolved inputs, what ldiv_db owns, the class
partition, partition statistics, a release's state, the declared options."""
