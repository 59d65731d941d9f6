#!/usr/bin/env bash
# make wheel-smoke: build the wheel, install it in a fresh venv outside the checkout, render (and run)
# every template from the installed package, and run `ldiv --help`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$repo/.venv/bin/python" -m build --wheel --outdir "$work/dist" "$repo" >/dev/null
wheel="$(ls "$work"/dist/ldiv_db-*.whl)"
echo "built $(basename "$wheel")"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel" pytest hypothesis
listing="$(unzip -l "$wheel")"  # read whole: 'unzip | grep -q' dies of SIGPIPE under pipefail
for f in ldiv_db/_sql/partition/histogram.sql ldiv_db/_migrations/0001_core_schema.sql \
         ldiv_db/_migrations/0002_decomposition.sql ldiv_db/_sql/lplus/histogram.sql \
         ldiv_db/_sql/report/diversity.sql ldiv_db/reporting/templates/report.html \
         ldiv_db/reporting/templates/compare.html; do
    grep -qF "$f" <<<"$listing" || { echo "wheel lacks $f"; exit 1; }
done
# the template tests from a directory without the package source: ldiv_db comes from the wheel
mkdir -p "$work/check"
cp -r "$repo/tests" "$repo/fixtures" "$work/check/"
cd "$work/check"
"$work/venv/bin/python" - <<'PY'
import ldiv_db, ldiv_db.sqlgen.render as r
assert "site-packages" in ldiv_db.__file__, ldiv_db.__file__
names = r.default_renderer().templates()
print(f"{len(names)} templates shipped in {r.default_renderer().root}")
PY
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests/templates
"$work/venv/bin/ldiv" --help >/dev/null
"$work/venv/bin/ldiv" anonymize --help >/dev/null
"$work/venv/bin/ldiv" report --help >/dev/null
# the report pages render from the installed package (templates and matplotlib come with the wheel)
"$work/venv/bin/python" - <<'PY'
from ldiv_db.sqlgen.render import render_html
from ldiv_db.reporting.charts import bar_chart
chart = bar_chart("smoke", ["a", "b"], [1, 2], title="smoke")
assert chart.bars == 2 and chart.svg.startswith("<svg")
html = render_html("_macros.html")
print("report templates and charts: ok")
PY
echo "wheel-smoke: ok"
