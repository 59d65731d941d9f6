"""BSGI's refinement (``--refine exchange``, beyond the paper): the exchange search over a finished
partition (:mod:`.exchange`, priced by :mod:`.swaps`), its other starts (:mod:`.construct`, :mod:`.split`,
:mod:`.starts`), and large tables in parts (:mod:`.parts`)."""
