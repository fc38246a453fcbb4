"""``printables serve``'s doors, over real sockets: who may ask (loopback however it is spelled, same-
origin posts on the network), requests that must arrive whole and in time, slow clients that may not
starve real ones, a backlog for a crowd, malformed requests answered, and hang-ups in one line."""

from __future__ import annotations

import http.client
import json
import socket
import struct
import threading
import time

import pytest

from printables.serve import server as server_module
from printables.serve.jobs import Jobs
from printables.serve.server import CustomizerServer, make_server, serve_in_thread, stop


@pytest.fixture
def running(tmp_path):
    """Start a server on ``host`` (a real socket, served in a thread); stopped after the test."""
    servers = []

    def start(host: str = "127.0.0.1"):
        srv = make_server(host, 0, root=tmp_path / f"jobs{len(servers)}")
        serve_in_thread(srv)
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        stop(srv)


def request(port: int, path: str = "/", *, host: str | None = None, method: str = "GET",
            headers: dict | None = None, body: bytes = b"", address: str = "127.0.0.1") -> tuple[int, str]:
    connection = http.client.HTTPConnection(address, port, timeout=10)
    connection.putrequest(method, path, skip_host=True)
    connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    text = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, text


def exchange(port: int, data: bytes, timeout: float = 10) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it (or ``timeout``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def reset_close(sock: socket.socket) -> None:
    """Hang up abruptly (a TCP reset), as a killed browser tab or a dropped network does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


BAD_FORM = b"players=abc"  # a form the server answers with field errors and no job


# --------------------------------------------------------------------------- who may ask


@pytest.mark.parametrize("spelling", ["LOCALHOST", "127.1", "127.000.000.001"])
def test_loopback_however_spelled_keeps_the_host_and_origin_checks(running, spelling):
    srv = running(spelling)
    assert not srv.allow_remote
    port = srv.server_address[1]
    assert request(port, "/harvest")[0] == 200
    status, body = request(port, "/harvest", host="evil.example")  # a rebound DNS name
    assert status == 403 and "evil.example" in body
    status, body = request(port, "/harvest", method="POST", body=BAD_FORM,
                           headers={"Origin": "http://evil.example", "Accept": "application/json",
                                    "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403 and "evil.example" in body


def test_serving_the_network_still_takes_forms_only_from_its_own_pages(running):
    srv = running("0.0.0.0")
    assert srv.allow_remote
    port = srv.server_address[1]
    form = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}
    assert request(port, "/harvest", host=f"printer-pc.lan:{port}")[0] == 200  # any name for this machine
    for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"https://printer-pc.lan:{port}",
                   f"http://printer-pc.lan:{port + 1}"):
        status, body = request(port, "/harvest", method="POST", host=f"printer-pc.lan:{port}", body=BAD_FORM,
                               headers={**form, "Origin": origin})
        assert status == 403 and "only the customizer's own pages may post" in body, origin
    # its own page (the same scheme, host and port the browser sent the form to) may post
    status, body = request(port, "/harvest", method="POST", host=f"printer-pc.lan:{port}", body=BAD_FORM,
                           headers={**form, "Origin": f"http://printer-pc.lan:{port}"})
    assert status == 400 and "players" in json.loads(body)["field_errors"]


# --------------------------------------------------------------------------- slow and many clients


def test_slow_clients_cannot_starve_real_requests(running):
    srv = running()
    port = srv.server_address[1]
    slow = []
    try:
        for _ in range(80):  # more than the server's 64 places, each sending a byte now and then
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"G")
            slow.append(sock)
        time.sleep(0.5)
        for sock in slow[:40]:
            try:
                sock.sendall(b"E")
            except OSError:  # already given up for a real request
                pass
        started = time.monotonic()
        for _ in range(10):
            assert request(port, "/harvest")[0] == 200
        assert time.monotonic() - started < 5  # at once, not after the slow ones' deadline
    finally:
        for sock in slow:
            sock.close()


def test_a_request_that_does_not_arrive_in_time_is_cut_off(running, monkeypatch):
    monkeypatch.setattr(server_module, "HEADER_DEADLINE_S", 1.5)
    monkeypatch.setattr(server_module, "BODY_DEADLINE_S", 1.5)
    srv = running()
    port = srv.server_address[1]
    for head, trickle in ((b"GET /harvest HTTP/1.1\r\n", b"X-Slow: 1\r\n"),
                          (f"POST /harvest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 1000\r\n\r\n".encode(),
                           b"grid=9x9&")):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(head)
            started, answer = time.monotonic(), b""
            for _ in range(20):  # a piece every 0.4 s, each well inside any per-read timeout
                time.sleep(0.4)
                try:
                    sock.sendall(trickle)
                except OSError:
                    break
                sock.settimeout(0.01)
                try:
                    answer = sock.recv(1000)
                except TimeoutError:
                    continue
                except ConnectionResetError:
                    break
                finally:
                    sock.settimeout(10)
                break
            assert time.monotonic() - started < 4, head
            assert answer.startswith(b"HTTP/1.1 408"), (head, answer)


def test_a_crowd_of_fifty_all_get_an_answer(running):
    srv = running()
    port = srv.server_address[1]
    assert srv.request_queue_size >= 128
    barrier = threading.Barrier(50)
    answers: list[bytes | str] = []

    def client():
        barrier.wait()
        try:
            answers.append(exchange(port, f"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                          "Connection: close\r\n\r\n".encode(), timeout=20))
        except OSError as error:
            answers.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=client) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == 50
    bad = [a for a in answers if not (isinstance(a, bytes) and a.startswith((b"HTTP/1.1 200", b"HTTP/1.1 503")))]
    assert not bad, bad[:3]


def test_one_other_machine_may_not_take_every_place(tmp_path):
    from test_serve import _own_non_loopback_address

    address = _own_non_loopback_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    srv = CustomizerServer("0.0.0.0", 0, Jobs(tmp_path), allow_remote=True)
    serve_in_thread(srv)
    held = []
    try:
        port = srv.server_address[1]
        for _ in range(server_module.MAX_PER_PEER + 4):  # idle connections from "another machine"
            held.append(socket.create_connection((address, port), timeout=5))
        time.sleep(0.5)
        with srv._open_lock:
            from_there = sum(1 for peer, _ in srv._open.values() if peer == address)
        assert from_there <= server_module.MAX_PER_PEER
        assert request(port, "/harvest")[0] == 200  # this machine still gets in
    finally:
        for sock in held:
            sock.close()
        stop(srv)


# --------------------------------------------------------------------------- malformed requests


@pytest.mark.parametrize("length", ["²", "1²", "9" * 5000, "1" * 19])
def test_a_content_length_that_is_no_number_of_bytes_is_answered_400(running, length):
    srv = running()
    port = srv.server_address[1]
    head = f"POST /harvest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {length}\r\n\r\n"
    answer = exchange(port, head.encode("latin-1"))  # header bytes are read as Latin-1: '²' is a digit to str.isdigit
    assert answer.startswith(b"HTTP/1.1 400") and b"not a number of bytes" in answer, answer[:200]
    assert len(answer) < 2000  # the message quotes the start of a long value, not all of it


def test_a_long_static_path_is_not_found(running):
    srv = running()
    port = srv.server_address[1]
    for path in ("/static/" + "a" * 300, "/static/" + "a/" * 3000, "/static/" + "%C3%A9" * 200):
        assert request(port, path)[0] == 404, path[:40]
    assert request(port, "/static/app.js")[0] == 200


def test_a_target_that_is_no_path_is_answered_400(running):
    srv = running()
    port = srv.server_address[1]
    for target in ("http://[x]/", "http://[::1/harvest"):  # urlsplit refuses these: the connection used to drop
        status, body = request(port, target)
        assert status == 400 and "is not a path" in body, target
        status, _ = request(port, target, method="POST", headers={"Origin": f"http://127.0.0.1:{port}"})
        assert status == 400, target


# --------------------------------------------------------------------------- hang-ups


def test_a_client_that_hangs_up_is_one_line_without_a_traceback(running, capfd):
    srv = running()
    port = srv.server_address[1]
    capfd.readouterr()
    for partial in (b"GET /harv", f"POST /harvest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 50\r\n\r\ngrid".encode()):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(partial)
        time.sleep(0.3)  # the server is reading the rest
        reset_close(sock)
    time.sleep(0.5)
    assert request(port, "/")[0] == 200  # still serving
    err = capfd.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all(" hung up (ConnectionResetError)" in line for line in lines), err
