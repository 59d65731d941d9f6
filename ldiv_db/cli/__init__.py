"""The ``ldiv`` command line: the parser and the dispatch to the public API (the top layer)."""
