/* purpose: prove the hashed group ids are collision-free: two key tuples sharing a gid would almost surely differ in gid2 */
/* params: none */
/* returns: collisions (0 when every gid stands for one key tuple) */
/* ref: DESIGN §5; a collision switches the evaluator to exact dense-rank ids */
SELECT
  COUNT(*) FILTER(WHERE
    collided) AS collisions
FROM "pg_temp"."tpl it's_stats"
