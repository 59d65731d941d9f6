ALTER TABLE "main"."staged it's__ldiv_job_load"
RENAME TO "renamed it's"
