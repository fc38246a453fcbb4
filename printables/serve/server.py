"""The customizer's HTTP server (the standard library's ThreadingHTTPServer).

It answers only local requests when it listens on an address that resolves to loopback (the
default, 127.0.0.1; also ``localhost``, ``127.1``...): the peer must be a loopback address and the
Host header must name this machine (localhost, 127.0.0.1, [::1]) — the latter keeps a web page on
another site from reaching the server through a rebound DNS name. On any other address (the user
chose to serve the network) any peer and Host are answered. Either way a form may only be posted
from the customizer's own pages (the Origin header, when the browser sends one).

Its doors: at most ``MAX_CONNECTIONS`` connections at once, no more than ``MAX_PER_PEER`` of them
from one other machine; a request must arrive whole in time (its headers within
``HEADER_DEADLINE_S``, its form within ``BODY_DEADLINE_S`` more); when every place is taken, the
connection that has waited longest for its request gives its place up to the new one, and only
when every connection is being answered is the new one told "busy" (503). A malformed request gets
a 400 or 404 answer, and a client that hangs up is one line in the terminal.
"""

from __future__ import annotations

import io
import ipaddress
import json
import mimetypes
import os
import re
import shutil
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from printables.serve import forms, pages
from printables.serve.folders import make_root, sweep_stale
from printables.serve.jobs import Busy, Jobs
from printables.serve.preview import Previews

STATIC = Path(__file__).resolve().parent / "static"
LOCAL_HOST_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
MAX_FORM_BYTES = 64_000
MAX_CONNECTIONS = 64  # open connections at once; more are answered 503 and closed
MAX_PER_PEER = 8  # open connections from one other machine (this machine's all share one address)
LISTEN_BACKLOG = 128  # connections the kernel queues before the server accepts them
HEADER_DEADLINE_S = 10.0  # a request's line and headers must arrive within this
BODY_DEADLINE_S = 10.0  # and its form within this after them
MAX_LENGTH_DIGITS = 18  # a Content-Length longer than this is no number of bytes we could take
BUSY_ANSWER = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
               b"Connection: close\r\nContent-Length: 45\r\n\r\n"
               b"busy: too many connections at once; try again")
NO_SCRIPT_WAIT_S = 10.0  # a form posted without JavaScript waits this long for a refusal
SOCKET_TIMEOUT_S = 30  # a client that sends nothing for this long is dropped
JOB_PATH = re.compile(r"/jobs/([0-9a-f]{16})(/.*)?")
API_JOB_PATH = re.compile(r"/api/jobs/([0-9a-f]{16})")
PREVIEW_STL_PATH = re.compile(r"/api/preview/giuthi/([0-9a-f]{20})\.stl")
PREVIEW_FOLDER = "_preview"  # under the jobs' root: the board previews' STLs


def is_loopback(address: str) -> bool:
    """Whether an IP address is this machine's loopback."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def resolves_to_loopback(host: str) -> bool:
    """Whether every address ``host`` names is this machine's loopback (``LOCALHOST``, ``127.1``)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    return bool(infos) and all(is_loopback(str(info[4][0])) for info in infos)


def host_name(header: str) -> str:
    """The name in a Host header, without the port: ``[::1]:8000`` -> ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def host_port(header: str) -> int | None:
    """The port in a Host header (80 when none is written), or None when it is no port."""
    header = header.strip()
    tail = header.rsplit("]", 1)[1] if header.startswith("[") else (header if header.count(":") == 1 else "")
    if ":" not in tail:
        return 80
    digits = tail.rsplit(":", 1)[1]
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 5 else None


class _DeadlineReader(io.RawIOBase):
    """A connection's incoming bytes, refused once the handler's deadline has passed: a client
    trickling a byte now and then cannot hold its place for longer than the deadline."""

    def __init__(self, sock: socket.socket, handler: "Handler"):
        super().__init__()
        self.sock, self.handler = sock, handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        """Bytes from the socket, waiting no later than the deadline."""
        remaining = self.handler.deadline - time.monotonic()
        if remaining <= 0:
            self.handler.timed_out = True
            raise TimeoutError("the request did not arrive in time")
        self.sock.settimeout(min(remaining, SOCKET_TIMEOUT_S))
        try:
            count = self.sock.recv_into(buffer)
        except TimeoutError:
            self.handler.timed_out = True
            raise
        finally:
            self.sock.settimeout(SOCKET_TIMEOUT_S)
        self.handler.received += count
        return count


class CustomizerServer(ThreadingHTTPServer):
    """The HTTP server with its jobs and who it answers."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, host: str, port: int, jobs: Jobs, *, allow_remote: bool = False):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.jobs = jobs
        self.previews = Previews(jobs.root / PREVIEW_FOLDER)
        self.allow_remote = allow_remote
        self.host_names = LOCAL_HOST_NAMES | {host.lower().strip("[]")}
        self.max_connections = MAX_CONNECTIONS
        # Each open connection: [peer address, since when it waits for its request (None while answered)].
        self._open: dict[socket.socket, list] = {}
        self._open_lock = threading.Lock()
        super().__init__((host, port), Handler)
        self.host_names |= {str(self.server_address[0]).lower()}

    def process_request(self, request, client_address):
        """Serve the connection in a thread, or, when no place is free, say so and close it."""
        with self._open_lock:
            admitted = self._admit(request, client_address[0])
        if not admitted:
            try:
                request.settimeout(1.0)
                request.sendall(BUSY_ANSWER)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def _admit(self, request: socket.socket, peer: str) -> bool:
        """Give the connection a place (holding the lock): free or taken from a connection still
        waiting for its request; False when every place is answering one."""
        now = time.monotonic()
        if not is_loopback(peer):  # one other machine may not take every place
            own = [s for s, (address, _) in self._open.items() if address == peer]
            if len(own) >= MAX_PER_PEER and not self._evict(own):
                return False
        if len(self._open) >= self.max_connections and not self._evict(list(self._open)):
            return False
        self._open[request] = [peer, now]
        return True

    def _evict(self, candidates: list[socket.socket]) -> bool:
        """Close the connection among ``candidates`` that has waited longest for its request."""
        waiting = [(self._open[s][1], i, s) for i, s in enumerate(candidates) if self._open[s][1] is not None]
        if not waiting:
            return False
        victim = min(waiting)[2]
        del self._open[victim]
        try:
            victim.shutdown(socket.SHUT_RDWR)  # its thread's read ends; the thread closes it
        except OSError:
            pass
        return True

    def set_waiting(self, request: socket.socket, waiting: bool) -> None:
        """Mark a connection as waiting for (the rest of) a request, or as being answered."""
        with self._open_lock:
            entry = self._open.get(request)
            if entry is not None:
                entry[1] = time.monotonic() if waiting else None

    def process_request_thread(self, request, client_address):
        """One connection's thread; frees its place when done."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._open_lock:
                self._open.pop(request, None)

    def handle_error(self, request, client_address):
        """One line in the terminal, never a traceback (PRINTABLES_DEBUG=1 shows it)."""
        error = sys.exc_info()[1]
        peer = f"{client_address[0]}:{client_address[1]}" if isinstance(client_address, tuple) else "a client"
        if isinstance(error, (ConnectionError, TimeoutError)):
            line = f"serve: {peer} hung up ({type(error).__name__})"
        else:
            line = f"serve: a request from {peer} failed ({type(error).__name__}: {' '.join(str(error).split())[:200]})"
        if os.environ.get("PRINTABLES_DEBUG"):
            super().handle_error(request, client_address)
        try:
            print(line, file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


class Handler(BaseHTTPRequestHandler):
    """Routes: pages, the form posts, job status, cancel, a job's files and static assets."""

    server: CustomizerServer
    server_version = "printables-serve"
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT_S  # a silent or trickling client does not hold a thread for ever

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        """Quiet: the terminal shows the server's address, not every request."""

    # -- one request, whole and in time ------------------------------------------------------------
    deadline = 0.0
    timed_out = False
    received = 0

    def setup(self):
        """The connection, read through the deadline."""
        super().setup()
        self.rfile = io.BufferedReader(_DeadlineReader(self.connection, self))

    def handle_one_request(self):
        """One request: its line and headers within HEADER_DEADLINE_S; a late one is answered 408."""
        self.deadline = time.monotonic() + HEADER_DEADLINE_S
        self.timed_out, self.received = False, 0
        self.server.set_waiting(self.connection, True)
        super().handle_one_request()
        if self.timed_out:
            self.close_connection = True
            if self.received:  # a request begun and not finished in time (an idle connection just closes)
                try:
                    self.connection.settimeout(1.0)
                    self.connection.sendall(b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                                            b"Content-Type: text/plain\r\nContent-Length: 34\r\n\r\n"
                                            b"the request did not arrive in time")
                except OSError:
                    pass

    def parse_request(self):
        """The request line and headers; a request without a form is then whole."""
        parsed = super().parse_request()
        if parsed and self.command != "POST":
            self.server.set_waiting(self.connection, False)
        return parsed

    # -- who may ask ------------------------------------------------------------------------------
    def refusal(self) -> str | None:
        """Why this request is refused, or None when it comes from this machine for this server."""
        peer = self.client_address[0]
        if not self.server.allow_remote and not is_loopback(peer):
            return f"refused: this customizer answers only this machine, not {peer}"
        host = self.headers.get("Host")
        # Served to the network (the user chose --host 0.0.0.0 or another address), any Host is
        # answered; on loopback only this machine's names (no rebound DNS name).
        if not self.server.allow_remote and (host is None or host_name(host) not in self.server.host_names):
            return f"refused: Host {host!r} is not this machine; open {self.server.url}"
        origin = self.headers.get("Origin")
        if self.command == "POST" and origin is not None and not self.is_own_origin(origin, host):
            return f"refused: a form posted from {origin} (only the customizer's own pages may post)"
        return None

    def is_own_origin(self, origin: str, host: str | None) -> bool:
        """Whether a browser's Origin header names this server (not another site, port or a sandbox):
        on loopback one of this machine's names at the server's port; served to the network, the
        very host and port the request was sent to (same origin)."""
        try:
            parts = urlsplit(origin)
            port = parts.port or 80
        except ValueError:
            return False
        if parts.scheme != "http" or not parts.hostname:
            return False
        if not self.server.allow_remote:
            return parts.hostname in self.server.host_names and port == self.server.server_address[1]
        return host is not None and parts.hostname == host_name(host) and port == host_port(host)

    # -- responses --------------------------------------------------------------------------------
    def send(self, status: int, body: bytes | str, content_type: str = "text/html; charset=utf-8",
             headers: dict[str, str] | None = None) -> None:
        """Answer with ``body`` (no body for HEAD), never cached, never framed by another site."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_json(self, status: int, data: dict) -> None:
        """Answer with JSON."""
        self.send(status, json.dumps(data), "application/json")

    def redirect(self, location: str) -> None:
        """303 See Other: after a form post, the page to look at."""
        self.send(HTTPStatus.SEE_OTHER, b"", "text/plain", {"Location": location})

    def not_found(self, what: str = "no such page") -> None:
        """404 with a line saying what is missing."""
        self.send(HTTPStatus.NOT_FOUND, pages.error_page(404, what))

    def send_file(self, path: Path, *, download: bool) -> None:
        """A file, as a download (``Content-Disposition: attachment``) or to show in the page."""
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".stl":
            content_type = "model/stl"
        plain = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in path.name)
        disposition = f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(path.name)}"
        headers = {"Content-Disposition": disposition} if download else {}
        self.send(HTTPStatus.OK, path.read_bytes(), content_type, headers)

    def wants_json(self) -> bool:
        """Whether the page's script asked (JSON), rather than a plain form post (HTML)."""
        return "application/json" in self.headers.get("Accept", "")

    def request_path(self) -> str | None:
        """The request's path, decoded; None after answering 400 when it is no path (``//[``)."""
        try:
            return unquote(urlsplit(self.path).path)
        except ValueError:
            self.send(HTTPStatus.BAD_REQUEST, f"refused: {self.path[:80]!r} is not a path", "text/plain; charset=utf-8")
            return None

    # -- methods ----------------------------------------------------------------------------------
    def do_HEAD(self):
        """As GET, without the body."""
        self.do_GET()

    def do_GET(self):
        """Pages, job status, job files and static files; refused unless local."""
        why = self.refusal()
        if why:
            self.send(HTTPStatus.FORBIDDEN, why, "text/plain; charset=utf-8")
            return
        path = self.request_path()
        if path is None:
            return
        if path == "/":
            self.send(HTTPStatus.OK, pages.index_page())
        elif path == "/favicon.ico":
            self.static("favicon.svg")
        elif path.lstrip("/") in forms.KINDS:
            kind = path.lstrip("/")
            if kind in forms.LONG_KINDS:
                self.server.previews.warm()  # CadQuery imported before the first preview is asked for
            self.send(HTTPStatus.OK, pages.kind_page(kind, pages.form_values(kind, self.query())))
        elif path == "/api/preview/giuthi":
            self.board_preview(self.query())
        elif path == "/api/preview/giuthi/fits":
            self.board_preview(self.query(), fits=True)
        elif match := PREVIEW_STL_PATH.fullmatch(path):
            stl = self.server.previews.stl_path(match.group(1))
            if stl is None:
                self.not_found("no such preview")
            else:
                self.send_file(stl, download=False)
        elif path.startswith("/static/"):
            self.static(path.removeprefix("/static/"))
        elif match := API_JOB_PATH.fullmatch(path):
            self.job_status(match.group(1))
        elif match := JOB_PATH.fullmatch(path):
            self.job_get(match.group(1), match.group(2) or "")
        else:
            self.not_found()

    def do_POST(self):
        """Form posts and cancels; refused unless local and from the customizer's own pages."""
        body = self.read_form_body()  # read first, even when refused: it would be taken for the next request
        self.server.set_waiting(self.connection, False)
        if body is None:
            return
        why = self.refusal()
        if why:
            self.send(HTTPStatus.FORBIDDEN, why, "text/plain; charset=utf-8")
            return
        path = self.request_path()
        if path is None:
            return
        if path.lstrip("/") in forms.KINDS:
            self.submit(path.lstrip("/"), dict(parse_qsl(body, keep_blank_values=True)))
        elif (match := JOB_PATH.fullmatch(path)) and match.group(2) == "/cancel":
            job = self.server.jobs.cancel(match.group(1))
            if job is None:
                self.not_found("no such job")
            elif self.wants_json():
                self.send_json(HTTPStatus.OK, self.status_of(job))
            else:
                self.redirect(f"/jobs/{job.id}")
        else:
            self.not_found()

    def read_form_body(self) -> str | None:
        """The posted form (at most MAX_FORM_BYTES), or None after refusing it and closing the connection.

        A body the server does not read would be taken for the next request, so a refused one
        closes the connection.
        """
        def refuse(status: int, message: str) -> None:
            self.close_connection = True
            self.send(status, message, "text/plain; charset=utf-8", {"Connection": "close"})

        if self.headers.get("Transfer-Encoding"):
            refuse(HTTPStatus.LENGTH_REQUIRED, "refused: send the form with a Content-Length, not in chunks")
            return None
        raw = (self.headers.get("Content-Length") or "0").strip()
        if not (raw.isascii() and raw.isdigit()) or len(raw) > MAX_LENGTH_DIGITS:  # not '²', nor 5,000 digits
            shown = repr(raw) if len(raw) <= 40 else f"{raw[:20]!r}... ({len(raw)} characters)"
            refuse(HTTPStatus.BAD_REQUEST, f"refused: Content-Length {shown} is not a number of bytes")
            return None
        length = int(raw)
        if length > MAX_FORM_BYTES:
            refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                   f"refused: a form of {length} bytes (at most {MAX_FORM_BYTES})")
            return None
        self.deadline = time.monotonic() + BODY_DEADLINE_S
        data = self.rfile.read(length)
        if len(data) < length:  # the client hung up mid-form
            self.close_connection = True
            return None
        return data.decode("utf-8", errors="replace")

    def query(self) -> dict[str, str]:
        """The request's query string as a form (a page link's settings)."""
        try:
            return dict(parse_qsl(urlsplit(self.path).query, keep_blank_values=True))
        except ValueError:
            return {}

    # -- handlers ---------------------------------------------------------------------------------
    def board_preview(self, link: dict[str, str], fits: bool = False) -> None:
        """GET /api/preview/giuthi?<link>: the board's coarse model (its STL's address) and print cost;
        /api/preview/giuthi/fits?<link>: the preset that fits the budget, for one over it."""
        errors = forms.field_errors("giuthi", link)
        if errors:
            self.send_json(HTTPStatus.BAD_REQUEST, {"field_errors": errors})
            return
        form = forms.form_from_link("giuthi", link)
        args = [a for a in forms.form_args("giuthi", form) if forms.is_model_arg("giuthi", a)]
        if fits:
            self.send_json(HTTPStatus.OK, self.server.previews.fits(args))
            return
        answer = dict(self.server.previews.board(args))
        if "error" in answer:
            field = forms.field_for_message("giuthi", answer["error"])
            answer["field_errors"] = {field: answer["error"]} if field else {}
            self.send_json(HTTPStatus.BAD_REQUEST, answer)
            return
        answer["stl"] = f"/api/preview/giuthi/{answer['key']}.stl"
        self.send_json(HTTPStatus.OK, answer)

    def static(self, name: str) -> None:
        """A file of the static folder, and nothing outside it."""
        try:  # a name the file system cannot take (a NUL, too long) is just not there
            path = (STATIC / name).resolve()
            found = "\0" not in name and path.is_relative_to(STATIC) and path.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            self.not_found()
            return
        self.send_file(path, download=False)

    def submit(self, kind: str, form: dict[str, str]) -> None:
        """A submitted form: refuse bad values field by field, else start a job."""
        errors = forms.field_errors(kind, form)
        if errors:
            if self.wants_json():
                self.send_json(HTTPStatus.BAD_REQUEST, {"field_errors": errors})
            else:
                self.send(HTTPStatus.BAD_REQUEST, pages.kind_page(kind, form, errors))
            return
        try:
            job = self.server.jobs.start(kind, forms.form_args(kind, form), form=form)
        except Busy as busy:
            if self.wants_json():
                self.send_json(HTTPStatus.SERVICE_UNAVAILABLE, {"error": str(busy)})
            else:
                self.send(HTTPStatus.SERVICE_UNAVAILABLE, pages.kind_page(kind, form, {}, str(busy)))
            return
        if self.wants_json():
            self.send_json(HTTPStatus.ACCEPTED, {"job": job.id, "status": f"/api/jobs/{job.id}"})
            return
        # Without JavaScript: a refusal is usually quick (the CLI checks its values first), so wait
        # a little and answer with the form itself, the values kept and the message by its field.
        job = self.server.jobs.wait(job.id, NO_SCRIPT_WAIT_S) or job
        if job.state == "refused":
            self.refused_form(job)
        else:
            self.redirect(f"/jobs/{job.id}")

    def refused_form(self, job) -> None:
        """A refused job's form page: what was typed, the CLI's message next to its field."""
        field_errors, form_error = refusal_errors(job)
        self.send(HTTPStatus.BAD_REQUEST, pages.kind_page(job.kind, job.form, field_errors, form_error))

    def status_of(self, job) -> dict:
        """What the page's script needs to know of a job: state, progress, results and field errors."""
        data = {"job": job.id, "state": job.state, "progress": job.progress(), "finished": job.is_finished}
        if job.state == "running":
            data["where"] = job.where()
        if job.is_finished:
            data["html"] = pages.result_html(job)
            if job.state == "refused":
                data["field_errors"], data["form_error"] = refusal_errors(job)
        return data

    def job_status(self, job_id: str) -> None:
        """GET /api/jobs/<id>: the job's status as JSON."""
        job = self.server.jobs.get(job_id)
        if job is None:
            self.send_json(HTTPStatus.NOT_FOUND, {"error": "no such job"})
        else:
            self.send_json(HTTPStatus.OK, self.status_of(job))

    def job_get(self, job_id: str, rest: str) -> None:
        """GET /jobs/<id> (its page) or /jobs/<id>/files/<file> (one of the files it made)."""
        job = self.server.jobs.get(job_id)
        if job is None:
            self.not_found("no such job (the server keeps the latest ones only)")
        elif rest in ("", "/") and job.state == "refused" and job.form is not None:
            self.refused_form(job)
        elif rest in ("", "/"):
            self.send(HTTPStatus.OK, pages.job_page(job))
        elif rest.startswith("/files/"):
            path = job.file_path(rest.removeprefix("/files/"))
            if path is None:
                self.not_found("no such file in this job")
            else:
                self.send_file(path, download=path.suffix != ".png")
        else:
            self.not_found()


def refusal_errors(job) -> tuple[dict[str, str], str]:
    """A refused job's CLI message: ``({field: message}, "")``, or ``({}, message)`` for the whole form."""
    field = forms.field_for_message(job.kind, job.error)
    return ({field: job.error}, "") if field else ({}, job.error)


def make_server(host: str = "127.0.0.1", port: int = 0, root: Path | None = None) -> CustomizerServer:
    """A customizer server (not yet serving); jobs go to folders under ``root``.

    Without ``root``, a new temp folder recording this process as its owner, after sweeping the
    folders of servers that were killed; it is removed again if the server cannot listen.
    """
    made = root is None
    if made:
        sweep_stale()
        root = make_root()
    allow_remote = not resolves_to_loopback(host)
    try:
        return CustomizerServer(host, port, Jobs(Path(root)), allow_remote=allow_remote)
    except BaseException:
        if made:
            shutil.rmtree(root, ignore_errors=True)
        raise


def serve_in_thread(server: CustomizerServer) -> threading.Thread:
    """Serve in a background thread (tests, scripts); stop with ``stop(server)``."""
    thread = threading.Thread(target=server.serve_forever, name="printables-serve", daemon=True)
    thread.start()
    return thread


def stop(server: CustomizerServer, remove_files: bool = True) -> None:
    """Stop serving, stop every job and (by default) delete the jobs' folders."""
    server.shutdown()
    server.jobs.shutdown()
    server.previews.close()
    server.server_close()
    if remove_files:
        shutil.rmtree(server.jobs.root, ignore_errors=True)
