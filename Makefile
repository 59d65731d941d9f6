# ldiv_db developer commands. Everything runs inside .venv, built from PyPI on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO_DB ?= demo/ldiv_demo.duckdb

.PHONY: demo test test-postgres test-spark test-slow bench lint typecheck wheel-smoke clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m fixtures.demo --db $(DEMO_DB)

# the default suite runs in parallel processes (one per core, at most 4); TEST_WORKERS=0 runs it in one
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow and not postgres and not spark" -p no:cacheprovider \
		-n $(TEST_WORKERS) --maxprocesses 4

# the engine tests: a throw-away PostgreSQL server (Debian's postgresql package) started by the tests
test-postgres: $(STAMP)
	$(BIN)/python -m pytest -q -m "postgres and not slow" -p no:cacheprovider

# The Spark engine (tests/spark): pyspark into the same venv, then the spark-marked tests only.
SPARK_STAMP := $(VENV)/.installed-spark
$(SPARK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,spark]'
	touch $(SPARK_STAMP)

test-spark: $(SPARK_STAMP)
	$(BIN)/python -m pytest -q -m "spark and not slow" -p no:cacheprovider tests/spark

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow -p no:cacheprovider

bench: $(STAMP)
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
	rm -rf $(VENV) build dist demo .pytest_cache .mypy_cache .ruff_cache
