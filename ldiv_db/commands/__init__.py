"""One module per ``ldiv`` command that is more than a call of a lower layer: anonymize, check,
attack, doctor, load, and the job file (``ldiv run``)."""
