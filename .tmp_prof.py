import sys, time
import ldiv_db
from bench.foundation import QI, SA
db = ldiv_db.Database.open(sys.argv[1])
t=time.perf_counter()
r = ldiv_db.check(db, "adult_1m", QI, SA, model="recursive", l=3, c=4)
print("total", time.perf_counter()-t, r.groups)
for s in sorted(db.steps, key=lambda s: -s.ms)[:12]: print(s.template, round(s.ms), s.rows)
