"""ldiv_db: in-database l-diversity anonymization."""
