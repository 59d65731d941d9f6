"""The package version, in one place below every layer (the report pages print it)."""

__version__ = "0.2.0"
