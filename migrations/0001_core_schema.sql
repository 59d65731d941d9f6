-- 0001: the ldiv schema — taxonomies, sensitivity categories, runs, steps, releases.
-- Append-only: never edit an applied migration; add 0002_... instead.
CREATE SCHEMA IF NOT EXISTS ldiv;

CREATE SEQUENCE IF NOT EXISTS ldiv.hierarchy_seq START 1;
CREATE SEQUENCE IF NOT EXISTS ldiv.run_seq START 1;
CREATE SEQUENCE IF NOT EXISTS ldiv.release_seq START 1;

-- One generalization hierarchy (taxonomy) per (table, column).
CREATE TABLE ldiv.hierarchy (
    hierarchy_id  INTEGER PRIMARY KEY,
    table_name    VARCHAR NOT NULL,     -- resolved name of the data table, e.g. main.adult
    column_name   VARCHAR NOT NULL,
    kind          VARCHAR NOT NULL,     -- 'imported' (ARX CSV) | 'intervals' (built) | 'flat'
    height        INTEGER NOT NULL,     -- number of levels counting the leaf level (ARX "height")
    leaves        INTEGER NOT NULL,     -- leaf count = domain size (ARX convention: may exceed the data)
    nodes         INTEGER NOT NULL,
    source        VARCHAR,              -- file it was imported from, or the interval spec
    created_at    TIMESTAMP NOT NULL DEFAULT current_timestamp,
    UNIQUE (table_name, column_name)
);

-- Tree nodes. A label identifies a node inside its hierarchy.
CREATE TABLE ldiv.hierarchy_node (
    hierarchy_id  INTEGER NOT NULL,
    node_id       INTEGER NOT NULL,     -- preorder index (left-to-right order), root = 0
    label         VARCHAR NOT NULL,
    parent_id     INTEGER,              -- NULL for the root
    depth         INTEGER NOT NULL,     -- root = 0
    height        INTEGER NOT NULL,     -- leaves = 0
    n_leaves      INTEGER NOT NULL,
    last_leaf     INTEGER NOT NULL,     -- preorder id of the last node in the subtree (subtree = node_id..last_leaf)
    lo            DOUBLE,               -- numeric range covered (interval hierarchies, numeric leaves)
    hi            DOUBLE
    -- (hierarchy_id, node_id) and (hierarchy_id, label) are unique; taxonomy.py guarantees it before
    -- writing. No index: DuckDB's index maintenance made storing a 100,000-leaf hierarchy 5x slower.
);

-- Leaf -> label at each ARX level (level 0 = the leaf itself). Drives full-domain generalization.
CREATE TABLE ldiv.hierarchy_level (
    hierarchy_id  INTEGER NOT NULL,
    leaf          VARCHAR NOT NULL,
    level         INTEGER NOT NULL,
    label         VARCHAR NOT NULL
    -- (hierarchy_id, leaf, level) is unique; guaranteed by taxonomy.py (no index, see above)
);

-- Sensitivity categories of an SA ((l,alpha)-diversity): rank 1 = most sensitive.
CREATE TABLE ldiv.sa_category (
    table_name    VARCHAR NOT NULL,
    column_name   VARCHAR NOT NULL,
    value         VARCHAR NOT NULL,
    category      INTEGER NOT NULL,
    PRIMARY KEY (table_name, column_name, value)
);

CREATE TABLE ldiv.run (
    run_id        INTEGER PRIMARY KEY,
    command       VARCHAR NOT NULL,     -- anonymize | check | metrics | ...
    algorithm     VARCHAR,
    source        VARCHAR,
    output        VARCHAR,
    params        JSON,
    status        VARCHAR NOT NULL,     -- running | done | failed
    started_at    TIMESTAMP NOT NULL DEFAULT current_timestamp,
    finished_at   TIMESTAMP,
    seconds       DOUBLE,
    queries       INTEGER,
    metrics       JSON,
    error         VARCHAR
);

CREATE TABLE ldiv.run_step (
    run_id        INTEGER NOT NULL,
    step_no       INTEGER NOT NULL,
    template      VARCHAR NOT NULL,
    sql_hash      VARCHAR NOT NULL,
    rows          BIGINT,
    ms            DOUBLE,
    PRIMARY KEY (run_id, step_no)
);

CREATE TABLE ldiv.release (
    release_id      INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL,
    name            VARCHAR NOT NULL,   -- output table
    source          VARCHAR NOT NULL,
    algorithm       VARCHAR NOT NULL,
    model           VARCHAR NOT NULL,
    l               VARCHAR,
    qi              JSON NOT NULL,
    sa              JSON NOT NULL,
    rows_in         BIGINT NOT NULL,
    rows_published  BIGINT NOT NULL,
    rows_suppressed BIGINT NOT NULL,
    groups          BIGINT NOT NULL,
    metrics         JSON,
    details         JSON,               -- algorithm-specific: the cut, phase, residue size, ...
    verified        BOOLEAN NOT NULL,
    verification    JSON,
    superseded_by   INTEGER,
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Private link from published groups to source rows; the published table carries no row ids.
CREATE TABLE ldiv.release_row (
    release_id     INTEGER NOT NULL,
    source_rowid   BIGINT NOT NULL,
    group_id       BIGINT,             -- NULL when the row was deleted (suppressed)
    suppressed     BOOLEAN NOT NULL
);
