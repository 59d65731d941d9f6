"""The ``ldiv`` schema: the shipped migrations, what a database holds compared with them, the
open-time rules per engine."""
