"""The release pipeline every algorithm's output goes through: write, reconcile with the source, verify
the privacy model on the written table, measure, record — in one transaction."""
