"""What the server (jobs.py) and a job's worker process (worker.py) agree on: the files in a job's
folder and the environment variable that carries the per-file quota."""

RESULT_FILE = "result.json"
JOB_FILE = "job.json"
MAX_FILE_ENV = "PRINTABLES_SERVE_MAX_FILE_BYTES"  # set by the server: the largest file the job may write
