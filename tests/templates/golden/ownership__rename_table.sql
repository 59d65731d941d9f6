ALTER TABLE "main"."staged it's__ldiv_job_load"
RENAME TO "renamed it's" /* purpose: give a job's staged load (a committed table beside the target) the target's name, inside the job's transaction; the rows keep their committed row ids */ /* params: none */ /* returns: nothing */ /* ref: issue 51 class 8 (the private link names committed rows); rendered only by ldiv_db/core/ownership.py */
