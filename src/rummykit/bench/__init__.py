"""Benchmarks behind ``rummykit bench …``: each returns a JSON-ready dict of measured figures."""
