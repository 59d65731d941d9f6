"""Code several algorithms use: QI kinds and taxonomy arrays (:mod:`.trees`), the Max-l schedule
(:mod:`.schedule`), the Hilbert curve and l-eligible grouping (:mod:`.curve`), full-domain levels (:mod:`.levels`).
No algorithm imports another algorithm; what two of them need lives here."""
