"""Starting ``manage.py serve`` for real (a Granian process on a free loopback port) and
talking to it over plain HTTP (and a websocket), as a phone would: for tests/test_serve*.py,
tests/test_push.py, bench/load.py and bench/push.py."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
# The address the servers are told phones use: not this machine's, so nothing depends on it.
PHONE_ADDRESS = "192.168.1.20"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url(settings_dict: dict[str, Any]) -> str:
    """The URL of the database a test runs on (its test database), for another process."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


def serve_env(database: str, static_root: Path, media_root: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_", "COV_"))}
    env.update(
        DATABASE_URL=database,
        STATIC_ROOT=str(static_root),
        MEDIA_ROOT=str(media_root),
        SECRET_KEY="serve-test-" + "k" * 50,
        LOG_LEVEL="ERROR",
    )
    env.update(extra)
    return env


def collect_static(env: dict[str, str]) -> None:
    """collectstatic as the serve command runs it (hashed, compressed names)."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env={**env, "DEBUG": "0", "SERVE_STATIC": "1"},
        check=True,
    )


def static_inputs_key() -> str:
    """A digest of everything collectstatic reads: each static file the finders find (its path
    and bytes), and the versions of Django and WhiteNoise, which name and compress them."""
    from importlib.metadata import version

    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256(f"{version('django')} {version('whitenoise')}".encode())
    found = {}
    for finder in get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            found.setdefault(path, storage.path(path))  # the first finder's file wins, as there
    for path in sorted(found):
        digest.update(path.encode() + b"\0" + Path(found[path]).read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def collected_static(env: dict[str, str]) -> Path:
    """collectstatic's output for the static files as they are, made once and kept in the temp
    folder under the digest of its inputs: the SQLite and the PostgreSQL runs of ``make test``
    (and their workers) share one (collecting compresses every file with Brotli at its highest
    quality: a quarter-minute of CPU). Written to a folder of its own, then renamed into place
    whole, so a run never reads a half-collected folder."""
    root = Path(tempfile.gettempdir()) / f"amnesia-test-static-{static_inputs_key()}"
    if (root / "staticfiles.json").is_file():
        return root
    for older in root.parent.glob("amnesia-test-static-*"):  # of static files since changed
        if time.time() - older.stat().st_mtime > 86_400:
            shutil.rmtree(older, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix=root.name + "-", dir=root.parent))
    collect_static({**env, "STATIC_ROOT": str(work)})
    try:
        work.rename(root)
    except OSError:  # another worker put its own there first: the same files
        shutil.rmtree(work, ignore_errors=True)
    return root


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    output: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def log(self) -> str:
        return self.output.read_text(errors="replace") if self.output.exists() else ""


def start_server(
    env: dict[str, str],
    output: Path,
    *args: str,
    port: int | None = None,
    workers: bool = False,
) -> Server:
    """``manage.py serve`` on 127.0.0.1 (no set-up, static collected already), once it answers;
    without its workers unless asked (they cost two processes a test rarely needs); without
    Django's system checks at its start (half a second of CPU each time: the game contract
    replays every demo), which tests/games/test_checks.py and test_serve's ``check --deploy``
    run."""
    port = port or free_port()
    if not workers:
        args = ("--no-workers", *args)
    command = [
        sys.executable,
        "manage.py",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--addresses",
        PHONE_ADDRESS,
        "--no-setup",
        "--no-collectstatic",
        "--skip-checks",
        *args,
    ]
    with output.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    server = Server(process, port, output)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited with {process.returncode}:\n{server.log()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"serve did not answer on port {port}:\n{server.log()}")


@dataclass
class Phone:
    """A browser over plain HTTP: its own cookies, and the Host a phone on the Wi-Fi sends."""

    port: int
    host: str = PHONE_ADDRESS
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[int, dict[str, str], bytes, list[str]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        sent = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
            set_cookies = response.headers.get_all("Set-Cookie") or []
            for line in set_cookies:
                name, _, rest = line.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                data,
                set_cookies,
            )
        finally:
            connection.close()

    def get(self, path: str, **headers: str):
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, fields: dict[str, Any]):
        return self.request(
            "POST",
            path,
            urlencode(fields).encode(),
            {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin},
        )

    def post_json(self, path: str, payload: dict[str, Any]):
        return self.request(
            "POST",
            path,
            json.dumps(payload).encode(),
            {
                "Content-Type": "application/json",
                "Origin": self.origin,
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
            },
        )

    def log_in(self, username: str, password: str) -> None:
        status, _headers, body, _cookies = self.get("/accounts/login/")
        assert status == 200, status
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
        status, headers, body, _cookies = self.post_form(
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": token.decode()},
        )
        assert status == 302, (status, body[:2000])
        assert "sessionid" in self.cookies


class Socket:
    """A websocket client, as small as the test needs: the handshake, then the server's text
    frames (unmasked, unfragmented: what Channels sends)."""

    def __init__(self, port: int, path: str, origin: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1]) if head else 0

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buffer += chunk
        taken, self.buffer = self.buffer[:n], self.buffer[n:]
        return taken

    def message(self, timeout: float) -> str:
        self.sock.settimeout(timeout)
        first, second = self._take(2)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(self._take(2))
        elif length == 127:
            length = int.from_bytes(self._take(8))
        payload = self._take(length)
        assert first & 0x0F == 1, f"not a text frame: {first:#x}"
        return payload.decode()

    def ready(self) -> bool:
        """Whether a frame (or part of one) is waiting to be read."""
        return bool(self.buffer) or bool(select.select([self.sock], [], [], 0)[0])

    def close(self) -> None:
        self.sock.close()
