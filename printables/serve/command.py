"""``printables serve``: the click command (imports only click until it runs)."""

from __future__ import annotations

import click

from printables.cli.types import WHOLE, examples

MAX_PORT = 65535


@click.command(epilog=examples(
    "printables serve",
    "printables serve --port 8080",
    "printables serve --port 0",
))
@click.option("--port", type=WHOLE, default=8000, show_default=True, help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. A name or address of this machine's loopback (127.0.0.1, "
                   "localhost) keeps the customizer to this machine; with any other, every machine that "
                   "can reach it may use it (forms are still taken only from its own pages).")
def serve(port: int, host: str) -> None:
    """A local customizer in the browser: a form per game, previews, checks and downloads."""
    import signal

    from printables.errors import ParameterError
    from printables.serve.server import make_server, stop

    if not 0 <= port <= MAX_PORT:
        raise ParameterError(f"--port {port}: use 0 to {MAX_PORT}")
    try:
        server = make_server(host, port)
    except OSError as error:
        if error.errno in (98, 48):  # EADDRINUSE on Linux, macOS
            raise ParameterError(f"--port {port}: already in use; choose another, or --port 0 for any free port") from None
        raise ParameterError(f"--host {host}: cannot listen there ({error.strerror or error})") from None
    # Ctrl-C, SIGTERM and a closed terminal stop the server here, so its jobs and their files go with
    # it; Ctrl-C is the way to stop it (exit 0), SIGTERM and SIGHUP end it as they end any command
    # (128 + the signal: 143, 129).
    received: list[int] = []

    def stop_serving(signum, frame):
        received.append(signum)
        if len(received) == 1:  # a second signal while stopping must not interrupt the stopping
            raise KeyboardInterrupt

    for signum in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            signal.signal(signum, stop_serving)
    if server.allow_remote:
        click.echo(f"warning: listening on {host}: any machine that can reach it may use the customizer", err=True)
    click.echo(f"Customizer at {server.url} (files in {server.jobs.root}; Ctrl-C stops it)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop(server)
    click.echo("Customizer stopped; its files were removed.", err=True)
    if received and received[0] != signal.SIGINT:
        raise click.exceptions.Exit(128 + received[0])
