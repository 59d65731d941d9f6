-- purpose: the published releases of the source of one release (every release ever published: a release that left the database stays out there, superseded or not), that release among them if it is published
-- params: release_id
-- returns: release_id, name, superseded_by (newest first)
-- ref: migrations/0004_publication.sql; ldiv_db/pipeline/publication.py (draft_composition: publication/published.sql of the release's source, in one statement)
SELECT r.release_id, r.name, r.superseded_by
FROM ldiv.release AS r
WHERE lower(r.source) = lower((SELECT s.source FROM ldiv.release AS s WHERE s.release_id = $release_id))
  AND r.release_id IN (SELECT p.release_id FROM ldiv.publication AS p WHERE p.state = 'published')
ORDER BY r.release_id DESC
