import duckdb, time
con = duckdb.connect('/tmp/b1m/adult1m.duckdb', read_only=True)
con.execute("SET enable_progress_bar=false")
keys = ['sex','age','race','marital-status','education','native-country','workclass','salary-class']
K = ", ".join(f'"{k}" AS k{i+1}' for i,k in enumerate(keys))
KK = ", ".join(f"k{i+1}" for i in range(len(keys)))
def t(label, sql):
    t0=time.perf_counter(); con.execute(sql); print(label, round(time.perf_counter()-t0,3))
t("cells only", f"CREATE OR REPLACE TEMP TABLE c AS SELECT {K}, 1 AS s, CAST(occupation AS VARCHAR) v, count(*) n FROM adult_1m GROUP BY ALL")
t("dense_rank", f"CREATE OR REPLACE TEMP TABLE c2 AS SELECT dense_rank() OVER (ORDER BY {KK}) gid, * FROM c")
t("hash gid", f"CREATE OR REPLACE TEMP TABLE c3 AS SELECT hash({KK}) gid, * FROM c")
t("hash gid no keys", f"CREATE OR REPLACE TEMP TABLE c4 AS SELECT hash({KK}) gid, s, v, n FROM c")
t("collision check", f"SELECT count(DISTINCT gid), count(DISTINCT ({KK})) FROM c3")
print(con.execute(f"SELECT count(DISTINCT gid), count(DISTINCT ({KK})) FROM c3").fetchall())
t("stats no window", "CREATE OR REPLACE TEMP TABLE st AS SELECT gid, s, sum(n) size, count(v) nv, max(n) h, list(n ORDER BY n DESC) counts, ln(sum(n)) - sum(n*ln(n))/sum(n) ent FROM c4 GROUP BY gid, s")
t("stats no list", "CREATE OR REPLACE TEMP TABLE st2 AS SELECT gid, s, sum(n) size, count(v) nv, max(n) h, ln(sum(n)) - sum(n*ln(n))/sum(n) ent FROM c4 GROUP BY gid, s")
