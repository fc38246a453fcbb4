"""Customizer jobs: each one a worker process in its own folder, with progress and cancel.

Every submitted form is a new job with a fresh folder under the server's temporary directory, so
two tabs (or two quick submits) never share files. At most ``max_running`` workers run at once (the
rest wait their turn); cancelling stops the worker's whole process group (PrusaSlicer included)
and removes the job's folder. A worker also dies with a server killed outright (SIGKILL): see
printables/lifeline.py.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import printables
from printables import lifeline
from printables.serve.job_files import JOB_FILE, MAX_FILE_ENV, RESULT_FILE

LOG_FILE = "log.txt"
STOP_GRACE_S = 5.0  # after SIGTERM, how long a worker has to clean up before SIGKILL
MAX_ACTIVE_JOBS = 8  # running or waiting at once; more are refused (a tab has one at a time)
MAX_JOBS_BYTES = 500_000_000  # the jobs' folders together (a Giuthi set is ~6 MB); oldest go first
MAX_FILE_BYTES = 200_000_000  # any one file a worker (or PrusaSlicer under it) writes: RLIMIT_FSIZE


class Busy(Exception):
    """A job cannot start now: too many at once, or the jobs' folders are full. The message says so."""


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    total = 0
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def _mb(n: int) -> str:
    return f"{n / 1e6:.0f} MB"


@dataclass
class Job:
    """One submitted form: its folder, worker process and what became of it."""

    id: str
    kind: str
    args: list[str]
    folder: Path
    state: str = "queued"  # queued, running, done, refused (bad input), failed, cancelled
    created: float = field(default_factory=time.monotonic)
    finished: float | None = None
    result: dict | None = None
    error: str = ""
    process: subprocess.Popen | None = None
    cancel_requested: bool = False
    form: dict[str, str] | None = None  # the submitted form, to show it again when refused
    started: float | None = None  # when its worker started (it may wait its turn first)

    @property
    def is_finished(self) -> bool:
        """Whether the job will change no more."""
        return self.state in ("done", "refused", "failed", "cancelled")

    def progress(self) -> list[str]:
        """The worker's progress lines so far, oldest first."""
        try:
            text = (self.folder / LOG_FILE).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        return [line.removeprefix("… ") for line in text.splitlines() if line.startswith("… ")]

    def where(self) -> dict:
        """Step n of m, its name and the time left (printables/serve/progress.py)."""
        from printables.serve import progress

        elapsed = time.monotonic() - self.started if self.started is not None else 0.0
        return progress.where(progress.plan(self.kind, self.args), self.progress(), elapsed)

    def file_path(self, relative: str) -> Path | None:
        """The absolute path of a file this job produced, or None when it is not one of them."""
        if not self.result:
            return None
        offered = set(self.result.get("files", [])) | set(self.result.get("previews", []))
        offered |= {self.result["zip"]} if self.result.get("zip") else set()
        if relative not in offered:
            return None
        path = (self.folder / relative).resolve()
        if not path.is_relative_to(self.folder.resolve()) or not path.is_file():
            return None
        return path


class Jobs:
    """The server's jobs, each in a folder under ``root``."""

    def __init__(self, root: Path, max_running: int = 2, keep: int = 40, max_active: int = MAX_ACTIVE_JOBS,
                 max_bytes: int = MAX_JOBS_BYTES, max_file_bytes: int = MAX_FILE_BYTES):
        self.root = Path(root)
        self.max_file_bytes = max_file_bytes
        self.keep = keep
        self.max_active = max_active
        self.max_bytes = max_bytes
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(max_running)

    def start(self, kind: str, args: list[str], form: dict[str, str] | None = None) -> Job:
        """Queue a job running ``printables <kind> <args>`` in a new folder; returns at once.

        Raises ``Busy`` when ``max_active`` jobs are already running or waiting, or when the jobs'
        folders hold ``max_bytes`` even after the oldest finished ones are deleted.
        """
        self._prune(keep_newest=False)  # a new job replaces what the page showed
        with self._lock:
            active = sum(not j.is_finished for j in self._jobs.values())
            if active >= self.max_active:
                raise Busy(f"busy: {active} jobs are running or waiting (at most {self.max_active} at once); "
                           "wait for one to finish, or cancel one")
            used = folder_bytes(self.root)
            if used >= self.max_bytes:
                raise Busy(f"full: the customizer's files take {_mb(used)} (at most {_mb(self.max_bytes)}); "
                           "wait for a running job to finish, or restart printables serve")
            job_id = secrets.token_hex(8)
            folder = self.root / job_id
            folder.mkdir(parents=True)
            (folder / "tmp").mkdir()
            (folder / JOB_FILE).write_text(json.dumps({"kind": kind, "args": args}), encoding="utf-8")
            job = Job(job_id, kind, list(args), folder, form=dict(form) if form is not None else None)
            self._jobs[job_id] = job
        threading.Thread(target=self._run, args=(job,), name=f"job-{job_id}", daemon=True).start()
        return job

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if the server still has it."""
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Stop a job: a queued one never starts, a running one's processes are terminated."""
        job = self.get(job_id)
        if job is None or job.is_finished:
            return job
        job.cancel_requested = True
        self._stop(job)
        return job

    def shutdown(self) -> None:
        """Stop every job (the server is closing)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if not job.is_finished:
                job.cancel_requested = True
                self._stop(job)

    def wait(self, job_id: str, timeout: float) -> Job | None:
        """Wait until the job is finished or ``timeout`` seconds pass (for tests and scripts)."""
        end = time.monotonic() + timeout
        job = self.get(job_id)
        while job is not None and not job.is_finished and time.monotonic() < end:
            time.sleep(0.05)
        return job

    def _stop(self, job: Job) -> None:
        process = job.process
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)  # the worker leads its own process group
        except ProcessLookupError:
            return
        try:
            process.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _run(self, job: Job) -> None:
        while not self._slots.acquire(timeout=0.2):
            if job.cancel_requested:
                self._finish(job, "cancelled")
                return
        try:
            if job.cancel_requested:
                self._finish(job, "cancelled")
                return
            job.state = "running"
            job.started = time.monotonic()
            # This thread starts the worker and waits for it: the worker's parent-death signal
            # fires when this thread ends (printables/lifeline.py), and the lifeline's write
            # end stays open here until then.
            read_end, write_end, lifeline_env = lifeline.open_lifeline()
            try:
                with open(job.folder / LOG_FILE, "w", encoding="utf-8") as log:
                    job.process = subprocess.Popen(
                        [sys.executable, "-m", "printables.serve.worker", str(job.folder)],
                        cwd=job.folder, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                        env={**_worker_env(job.folder, self.max_file_bytes), **lifeline_env},
                        start_new_session=True, pass_fds=(read_end,),
                    )
                os.close(read_end)
                read_end = -1
                if job.cancel_requested:  # cancelled while the worker was being started
                    self._stop(job)
                code = job.process.wait()
            finally:
                for fd in (read_end, write_end):
                    if fd >= 0:
                        os.close(fd)
        finally:
            self._slots.release()
        if job.cancel_requested:
            self._finish(job, "cancelled")
            return
        try:
            job.result = json.loads((job.folder / RESULT_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            lines = [l for l in job.progress() if l] or [f"the worker stopped with exit code {code}"]
            tail = (job.folder / LOG_FILE).read_text(encoding="utf-8", errors="replace").strip().splitlines()
            job.error = (tail or lines)[-1]
            self._finish(job, "failed")
            return
        exit_code = job.result.get("exit_code", 1)
        if exit_code == 0:
            self._finish(job, "done")
        else:
            job.error = job.result.get("message", "")
            self._finish(job, "refused" if exit_code == 2 else "failed")

    def _finish(self, job: Job, state: str) -> None:
        if state == "cancelled":  # the page says nothing was kept: the worker is stopped, so remove it all
            shutil.rmtree(job.folder, ignore_errors=True)
        job.state = state
        job.finished = time.monotonic()
        self._prune()

    def _prune(self, keep_newest: bool = True) -> None:
        """Forget the oldest finished jobs beyond ``keep``, or while the folders hold more than
        ``max_bytes`` (unless ``keep_newest`` is off, the newest finished job stays: its page may be
        open), and delete their folders."""
        with self._lock:
            finished = sorted((j for j in self._jobs.values() if j.is_finished), key=lambda j: j.created)
            old = finished[: max(0, len(finished) - self.keep)]
            rest = finished[len(old):-1] if keep_newest else finished[len(old):]
            if rest:
                used = folder_bytes(self.root) - sum(folder_bytes(j.folder) for j in old)
                for job in rest:
                    if used <= self.max_bytes:
                        break
                    used -= folder_bytes(job.folder)
                    old.append(job)
            for job in old:
                del self._jobs[job.id]
        for job in old:
            shutil.rmtree(job.folder, ignore_errors=True)


def _worker_env(folder: Path, max_file_bytes: int = MAX_FILE_BYTES) -> dict[str, str]:
    """The server's environment, with temporary files kept inside the job folder and this
    printables importable first (the worker must run the same code as the server)."""
    env = dict(os.environ)
    env["TMPDIR"] = str(folder / "tmp")
    package_parent = str(Path(printables.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_parent, *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("PYTHONUNBUFFERED", "1")
    env[MAX_FILE_ENV] = str(max_file_bytes)
    return env
