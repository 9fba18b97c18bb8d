"""The polls' own process: a phone's "anything new?" answered by an interpreter that pages and
moves do not share.

The served app (``amnesia_site/lanes.py``) runs pages and polls in two pools of threads, so a
poll never queues behind pages for a thread. But the threads of one process take turns at one
interpreter: under load each of a poll's turns (reading its request, each step of its query,
its answer) waits behind the threads rendering pages, and on SQLite, whose every step lets the
interpreter go, a poll takes many turns. So each server process starts one child,
``python -m amnesia_site.pollserver SOCKET``, which sets Django up and answers polls alone, in
``POLL_THREADS`` threads running the same WSGI application (same settings, middleware and
views), with an interpreter lock of its own.

The wire: a Unix socket in a folder only this user can open (``tempfile.mkdtemp``, 0700). The
served app keeps up to ``POLL_THREADS`` connections open, one poll at a time on each; the child
answers each connection in a thread of its own. A request is a frame: 4 bytes (big-endian
length), then the request's WSGI environ, its text entries only, as a JSON object (a poll is a
GET or a HEAD with no body). The answer: 4 bytes (the length of the head), 4 bytes (the length
of the body), the head as JSON (``{"status": "204 No Content", "headers": [[name, value]...]}``)
and the body's bytes. No pickle: a frame is data, never code. A frame the child cannot read
(too long, not JSON, not text, not a GET or HEAD) ends that connection, and only that one.

Nothing is lost when the child fails: until it is up, when a request to it fails, or when it
died, the poll runs in the served app's own pool for polls (as before the child existed), and a
dead child is started again (waiting longer after each start that never answered). The child
stops with the app (lifespan shutdown) and ends by itself when its parent goes: its standard
input is a pipe from the parent, whose end closes when the parent dies, however it dies.

The served app sends only a poll's 200 or 204 back from the child. Anything else (a wrong seat
token's 404, a 429) is asked again in the served app's own pool, so the counting of guessed
seat links (``amnesia_site/throttle.py``: Django's cache, per process without REDIS_URL) stays
whole in the process that serves the seat pages too; the child reads the counts but never adds
to them (with Redis, counting in both would count each guess twice). Without Redis the child
cannot know that an address is cooling off: a poll with a right seat link from it is answered.

``POLL_PROCESS=0`` turns the child off: the polls stay in the served app's pool for polls.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

logger = logging.getLogger(__name__)

# A poll's request: a few hundred bytes of headers. Anything much larger is not a poll.
MAX_REQUEST = 64 * 1024
# A poll's answer: a version number, a few headers. A larger one is left to the served app.
MAX_HEAD = 64 * 1024
MAX_BODY = 1024 * 1024
LENGTH = struct.Struct(">I")
ANSWER = struct.Struct(">II")
# The methods a poll answers (``require_safe``); a body never comes with them here.
METHODS = ("GET", "HEAD")
# How long the served app waits for the child's answer before asking its own pool instead.
ANSWER_TIMEOUT = 10.0
# The longest wait before starting again a child that died without answering (it doubles
# from one second after each such start).
MOST_BACKOFF = 60.0


class BadFrame(ValueError):
    """A frame that is not a poll's request: its connection ends."""


def encode_request(environ: dict) -> bytes:
    """The frame for a request: its environ's text entries (the rest is made again there)."""
    data = json.dumps(
        {k: v for k, v in environ.items() if isinstance(v, str)}, separators=(",", ":")
    ).encode()
    return LENGTH.pack(len(data)) + data


def decode_request(data: bytes) -> dict[str, str]:
    """A request frame's environ, checked: text only, and a poll's method."""
    try:
        environ = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadFrame("not JSON") from exc
    if not isinstance(environ, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in environ.items()
    ):
        raise BadFrame("not an object of text")
    if environ.get("REQUEST_METHOD") not in METHODS or not environ.get("PATH_INFO"):
        raise BadFrame("not a poll's request")
    return environ


def encode_answer(status: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    head = json.dumps({"status": status, "headers": headers}, separators=(",", ":")).encode()
    return ANSWER.pack(len(head), len(body)) + head + body


# -- the child ------------------------------------------------------------------------------
def _read_exactly(conn: socket.socket, size: int) -> bytes | None:
    """``size`` bytes, or None when the other end closed before the first one."""
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 65536))
        if not chunk:
            if left == size:
                return None
            raise BadFrame("cut short")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def answer(application: Callable, environ: dict[str, str]) -> bytes:
    """The WSGI application's answer to one request, as an answer frame."""
    started: dict = {}

    def start_response(status: str, headers: list, exc_info=None):
        started["status"], started["headers"] = status, [list(h) for h in headers]
        return lambda data: None  # the legacy write(): Django never calls it

    full = {
        **environ,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": environ.get("wsgi.url_scheme", "http"),
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    result = application(full, start_response)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):  # Django's request_finished
            result.close()
    return encode_answer(started["status"], started["headers"], body)


def serve_connection(application: Callable, conn: socket.socket) -> None:
    """One connection from the served app: requests answered one after another until it closes
    or sends a frame that is not a poll's request."""
    with conn:
        try:
            while True:
                raw = _read_exactly(conn, LENGTH.size)
                if raw is None:
                    return
                (size,) = LENGTH.unpack(raw)
                if size > MAX_REQUEST:
                    raise BadFrame(f"{size} bytes")
                data = _read_exactly(conn, size)
                if data is None:
                    raise BadFrame("cut short")
                conn.sendall(answer(application, decode_request(data)))
        except BadFrame as exc:
            logger.warning("The poll process refused a frame (%s): connection closed.", exc)
        except OSError:
            return  # the served app went away mid-answer: it asks its own pool instead


def _exit_with_parent() -> None:
    """Standard input is a pipe from the parent: its end closes when the parent goes."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit("usage: python -m amnesia_site.pollserver SOCKET")
    path = Path(argv[0])
    threading.Thread(target=_exit_with_parent, name="parent", daemon=True).start()
    # Stopped by the served app (SIGTERM), or with it by a Ctrl-C in its terminal: at once and
    # quietly, a poll under way is asked again in the served app.
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, lambda *_: os._exit(0))
    # Imported here, in the child only: the first sets Django up, the others need it set up.
    from amnesia_site.wsgi import application  # isort: skip
    from django.db import connections  # isort: skip
    from amnesia_site import throttle  # isort: skip

    throttle.counts_wrong_secrets = False  # the served app counts what it asks again

    # The child's threads live as long as it does: each keeps its database connection across
    # polls (opening a SQLite one, with its pragmas, costs more than the poll's read).
    for settings_dict in connections.settings.values():
        settings_dict["CONN_MAX_AGE"] = max(settings_dict.get("CONN_MAX_AGE") or 0, 600)
    path.unlink(missing_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(64)
    while True:
        conn, _ = listener.accept()
        threading.Thread(
            target=serve_connection, args=(application, conn), name="polls", daemon=True
        ).start()


# -- the served app's side -------------------------------------------------------------------
class PollProcess:
    """The served app's child answering polls, and its pool of connections to it (see the
    module). ``ask`` gives the child's answer, or None when the served app must answer itself.
    """

    def __init__(
        self, connections: int, env: dict[str, str] | None = None, cwd: str | None = None
    ) -> None:
        if connections < 1:
            raise ValueError("a connection at least")
        self.connections = connections
        self.env = env
        self.cwd = cwd
        self.process: subprocess.Popen | None = None
        self.folder: str | None = None
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.slots: asyncio.Semaphore | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.started_at = 0.0
        self.backoff = 1.0
        self.answered = False  # by the child now running, at least once

    @property
    def socket_path(self) -> str:
        assert self.folder is not None
        return os.path.join(self.folder, "polls.sock")

    def start(self) -> None:
        """Start the child (again), unless one is running or the last one died too soon."""
        if self.process is not None and self.process.poll() is None:
            return
        if self.process is not None:
            # It died. One that never answered waits longer each time (a broken setting must
            # not start a process every second); one that did is started again at once.
            if not self.answered and time.monotonic() - self.started_at < self.backoff:
                return
            self.backoff = 1.0 if self.answered else min(self.backoff * 2, MOST_BACKOFF)
            logger.warning("The poll process ended (%s): starting it again.", self.process.poll())
        self._drop_connections()
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="amnesia-polls-")  # 0700: this user only
        self.answered = False
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "amnesia_site.pollserver", self.socket_path],
            stdin=subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
        )

    def stop(self) -> None:
        """Stop the child and remove its socket's folder."""
        self._drop_connections()
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)
            if process.stdin is not None:
                process.stdin.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def _drop_connections(self) -> None:
        for _reader, writer in self.idle:
            writer.close()
        self.idle.clear()

    async def ask(self, environ: dict) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """The child's answer to a poll (status, headers, body), or None: not up, failed, or
        an answer that is not a poll's 200 or 204 (the served app answers those itself)."""
        if self.process is None or self.process.poll() is not None:
            self.start()
            return None
        frame = encode_request(environ)
        if len(frame) > LENGTH.size + MAX_REQUEST:  # headers no poll sends: the child refuses
            return None
        loop = asyncio.get_running_loop()
        if self.slots is None or self.loop is not loop:  # connections belong to one loop
            self.idle.clear()
            self.slots, self.loop = asyncio.Semaphore(self.connections), loop
        async with self.slots:
            try:
                if self.idle:
                    reader, writer = self.idle.pop()
                else:
                    reader, writer = await asyncio.open_unix_connection(self.socket_path)
            except OSError:
                return None  # not listening yet
            try:
                writer.write(frame)
                head_size, body_size = ANSWER.unpack(
                    await asyncio.wait_for(reader.readexactly(ANSWER.size), ANSWER_TIMEOUT)
                )
                if head_size > MAX_HEAD or body_size > MAX_BODY:
                    raise BadFrame("too large")
                data = await asyncio.wait_for(
                    reader.readexactly(head_size + body_size), ANSWER_TIMEOUT
                )
                head = json.loads(data[:head_size])
                status = int(head["status"].split(" ", 1)[0])
                headers = [
                    (k.lower().encode("latin1"), v.encode("latin1")) for k, v in head["headers"]
                ]
            except (OSError, EOFError, TimeoutError, ValueError, KeyError, TypeError) as exc:
                writer.close()
                logger.warning("The poll process failed a poll (%r): answered here.", exc)
                if self.process is not None and self.process.poll() is not None:
                    self.start()
                return None
            except BaseException:  # cancelled (the phone went away): mid-answer, not reusable
                writer.close()
                raise
            self.idle.append((reader, writer))
        self.answered = True
        if status not in (200, 204):
            return None
        return status, headers, data[head_size:]


if __name__ == "__main__":
    main(sys.argv[1:])
