"""Verification of a release or a table against its privacy model: the guarantees an algorithm
promises, the feasibility of a model (suggest-l)."""
