"""``python -m bench.peers``: the peers suite (bench/peers/suite.py)."""

import sys

from bench.peers.suite import main

sys.exit(main())
