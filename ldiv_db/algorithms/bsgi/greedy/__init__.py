"""BSGI as the paper has it (Ye et al., Figs. 1-3; SPEC §2.2): the compressed cells, the IL cost model, the
greedy's state, Select/Group one class at a time (:mod:`.select`) or in waves (:mod:`.waves`), and
Incorporate (:mod:`.incorporate`)."""
