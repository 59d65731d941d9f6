# ldiv_db developer commands. Everything runs inside .venv, built from PyPI on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO_DB ?= demo/ldiv_demo.duckdb

.PHONY: bytecode demo test test-docs test-postgres test-spark test-dbt test-slow bench lint typecheck wheel-smoke clean venv docs

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(MAKE) --no-print-directory bytecode
	touch $(STAMP)

# the package's modules compiled once, as an installed wheel has them (an editable install otherwise
# compiles them at every start where PYTHONDONTWRITEBYTECODE is set); a stale file is ignored by Python
bytecode:
	$(BIN)/python -m compileall -q ldiv_db bench > /dev/null

demo: $(STAMP)
	$(BIN)/python -m fixtures.demo --db $(DEMO_DB)

# the default suite runs in parallel processes (one per core, at most 4); TEST_WORKERS=0 runs it in one
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow and not postgres and not spark and not dbt and not docs" \
		-p no:cacheprovider -n $(TEST_WORKERS) --maxprocesses 4

# every bash/python example of README.md and docs/ run as written (the PostgreSQL and Spark pages run in
# their engines' targets); its own target so that `make test` stays within its ten minutes
test-docs: $(STAMP)
	$(BIN)/python -m pytest -q -m "docs and not postgres and not spark" -p no:cacheprovider \
		-n $(TEST_WORKERS) --maxprocesses 4 tests/docs

# the engine tests: a throw-away PostgreSQL server (Debian's postgresql package) started by the tests
test-postgres: $(STAMP)
	$(BIN)/python -m pytest -q -m "postgres and not slow and not dbt" -p no:cacheprovider

# The Spark engine (tests/spark): pyspark into the same venv, then the spark-marked tests only.
SPARK_STAMP := $(VENV)/.installed-spark
$(SPARK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,spark]'
	touch $(SPARK_STAMP)

test-spark: $(SPARK_STAMP)
	$(BIN)/python -m pytest -q -m "spark and not slow" -p no:cacheprovider tests/spark

# The dbt package (integrations/dbt) in a real dbt project (tests/dbt): dbt-core, dbt-duckdb and
# dbt-postgres (pinned: pyproject's dbt extra) in a venv of their own, since dbt-core pins pathspec
# below what mypy (dev) needs; DuckDB and the throw-away PostgreSQL server.
DBT_VENV  := .venv-dbt
DBT_STAMP := $(DBT_VENV)/.installed
$(DBT_STAMP): pyproject.toml
	$(PYTHON) -m venv $(DBT_VENV)
	$(DBT_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(DBT_VENV)/bin/python -m pip install --quiet -e '.[dbt]' pytest 'psycopg[binary]>=3.1'
	touch $(DBT_STAMP)

test-dbt: $(DBT_STAMP)
	$(DBT_VENV)/bin/python -m pytest -q -m dbt -p no:cacheprovider tests/dbt

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow -p no:cacheprovider

# The docs site (mkdocs-material, the `docs` extra) into site/, offline; --strict: a warning fails it.
# docs/hooks.py writes the reference pages from the code (docs/gen_reference.py) before the build.
DOCS_STAMP := $(VENV)/.installed-docs
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

bench: $(STAMP) bytecode
	$(BIN)/python -m bench.run

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

wheel-smoke: $(STAMP)
	bash bench/wheel_smoke.sh

clean:
	rm -rf $(VENV) $(DBT_VENV) build dist demo site docs/reference .pytest_cache .mypy_cache .ruff_cache
