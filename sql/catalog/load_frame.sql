-- purpose: copy a DataFrame (pandas, Polars or Arrow) registered on the connection into a new table, in the frame's row order
-- params: none
-- returns: creates target; its row ids are the frame's row positions (DuckDB keeps the insertion order)
-- ref: issue 55 item 3 (DataFrames in: stable row ids, since a view of a frame has none)
CREATE TABLE {{ target | table }} AS
SELECT * FROM {{ frame | table }}
