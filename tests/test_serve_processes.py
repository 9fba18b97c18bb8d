"""``manage.py serve``'s processes for real: it runs the workers and starts again one that
died, HTTPS mode with a self-signed certificate, and a killed serve takes every child with it."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import ssl
import subprocess

import psutil
import pytest

from amnesia_site.workers import lifeline, work
from amnesia_site.workers.models import WorkerBeat
from tests.server_processes import running_still
from tests.serving import (
    PHONE_ADDRESS,
    start_server,
)
from tests.workers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_serve_runs_the_workers_and_starts_again_one_that_died(server_env, tmp_path):
    """make serve: a worker for the books, one for the long runs and one for the uploaded
    pictures beside Granian; a worker killed is started again; stopping the server stops them
    all."""
    log = tmp_path / "serve.log"
    server = start_server(server_env, log, workers=True)
    try:

        def workers() -> dict[str, int]:
            return {
                w.queues: w.pid
                for w in WorkerBeat.objects.filter(host=work.HOST)
                if not work.gone(w)
            }

        first = wait_for(lambda: len(workers()) == 3 and workers(), "three workers", log=log)
        assert set(first) == {"books", "long", "pictures"}
        supervised = {c.pid for c in psutil.Process(server.process.pid).children()}
        assert set(first.values()) <= supervised
        os.kill(first["books"], signal.SIGKILL)
        again = wait_for(
            lambda: workers().get("books") not in (None, first["books"]) and workers(),
            "the books worker started again",
            log=log,
        )
        # the others untouched
        assert (again["long"], again["pictures"]) == (first["long"], first["pictures"])
        assert "The books worker stopped (exit status -9): started again" in log.read_text()
        children = psutil.Process(server.process.pid).children(recursive=True)
    finally:
        server.stop()
    assert server.process.returncode == 0
    for child in children:  # Granian, its workers, the task workers: all gone with it
        assert not psutil.pid_exists(child.pid) or child.status() == psutil.STATUS_ZOMBIE


def self_signed_certificate(folder) -> tuple[str, str] | None:
    """A certificate and its key for 127.0.0.1, made by openssl (None without it)."""
    if not shutil.which("openssl"):
        return None
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-subj", "/CN=amnesia-table", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return str(cert), str(key)


def ask_over_tls(port: int, cert: str):
    """The login page over HTTPS, trusting the test's certificate: the answer and its cookies."""
    context = ssl.create_default_context(cafile=cert)
    context.check_hostname = False  # the certificate names no address: phones warn once
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=context)
    try:
        connection.request("GET", "/accounts/login/", headers={"Host": f"{PHONE_ADDRESS}:1"})
        response = connection.getresponse()
        response.read()
        return response, response.headers.get_all("Set-Cookie") or []
    finally:
        connection.close()


# SQLite only (tests/conftest.py): what it checks is the server's processes and its answer over
# TLS, which no engine changes (the login page it asks for is the same page on either, and the
# killed serve is asked nothing); the workers' test above, whose workers write their beats and
# take their tasks on the database, runs on both. On PostgreSQL it was a serve started again (3
# to 5 s of CPU, four processes setting Django up) and a flush. One serve for both of its parts
# (each start is those processes again): HTTPS mode first, then the same serve killed.
@pytest.mark.sqlite_only
def test_https_mode_then_a_killed_serve_takes_every_child_with_it_and_frees_the_port(
    server_env, tmp_path
):
    """HTTPS mode (``--https``, a self-signed certificate): the page over TLS, its cookies
    Secure, never HSTS. Then kill -9 of that ``serve`` stops nobody itself: Granian (and so its
    worker) ends by the kernel's parent-death signal, and the port is
    free for a new serve (orphans used to keep it, and a new serve bound it beside them). The
    task workers die the same way (tests/test_workers.py, with quicker stand-ins)."""
    certificate = self_signed_certificate(tmp_path)
    if certificate is None:  # the kill is still checked, on plain HTTP
        server = start_server(server_env, tmp_path / "serve.log")
    else:
        env = {**server_env, "SERVE_CERT": certificate[0], "SERVE_KEY": certificate[1]}
        server = start_server(env, tmp_path / "serve.log", "--https")
    children: list[psutil.Process] = []
    try:
        if certificate is not None:
            response, cookies = ask_over_tls(server.port, certificate[0])
            assert response.status == 200, server.log()
            assert cookies and all("secure" in c.lower() for c in cookies)
            assert response.getheader("Strict-Transport-Security") is None  # never HSTS here
        children = psutil.Process(server.process.pid).children(recursive=True)
        commands = [" ".join(c.cmdline()) for c in children]
        assert sum("granian" in c for c in commands) == 2, commands  # Granian and its worker
        server.process.kill()
        server.process.wait(timeout=10)
        wait_for(
            lambda: not any(running_still(c) for c in children),
            "every child of the killed serve gone",
            timeout=20,
            log=server.output,
        )
        wait_for(lambda: not lifeline.port_in_use("127.0.0.1", server.port), "the port free")
    finally:
        server.stop()
        for child in children:  # on the code as it was: the orphans, stopped here
            if running_still(child):
                child.kill()
    if certificate is None:
        pytest.skip("openssl makes the test certificate: HTTPS mode not checked (the kill was)")
