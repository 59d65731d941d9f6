"""The peers suite of ``make bench`` (bench/peers/suite.py): ldiv_db beside ARX, pycanon and anjana
(issue 57). ``python -m bench.peers --help``; bench/peers/README.md."""
