"""``serve``: the table's own server, for the phones around it (``make serve``).

What ``runserver`` is not: Granian, a production server, runs the site with DEBUG off; the
site serves its own static files (WhiteNoise, hashed names kept a year by browsers); the
addresses phones open are allowed hosts and are printed, with a QR code of the first, in the
terminal. Plain HTTP on a local network is the normal case for a table, so the HTTPS-only
settings (secure cookies, redirect, HSTS) are off unless asked for (docs/serving.md: "HTTPS, or plain HTTP").

The steps, each testable alone:
0. the refusal of a port another process listens on already, naming it (``lifeline.py``);
1. the set-up ``make run`` does too (migrate, the area cards, the demo), unless ``--no-setup``;
2. the refusal to listen beyond this machine while the demo account keeps its published
   password;
3. the secret key: SECRET_KEY if given, else a key made once and kept in a file outside git;
4. the addresses: ``--addresses`` or LAN_ADDRESSES, else the private IPv4 addresses of the
   interfaces that are up now;
5. ``collectstatic`` under the server's settings, then Granian (running the site in two pools
   of threads, one for the polls alone: amnesia_site/lanes.py, and the push's websockets beside them)
   and the workers (books, long runs, pictures), children of this process, which stops them
   together and starts again a worker that died (``amnesia_site.workers.supervise``); each of
   them ends when this process ends, killed or not (``amnesia_site.workers.lifeline``).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import qrcode
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from amnesia_site.addresses import is_loopback, is_private_ipv4, private_addresses
from amnesia_site.workers import lifeline
from amnesia_site.workers.supervise import Supervisor
from amnesia_site.workers.work import worker_commands
from games.management.commands.demo import DEMO_PASSWORD, DEMO_USER
from games.management.typed import manage_py

DEFAULT_KEY_FILE = ".secret_key"  # beside manage.py; .gitignore keeps it out of git


def demo_password_in_use() -> bool:
    """Whether the demo account can still be entered with the password the README publishes."""
    user = get_user_model().objects.filter(username=DEMO_USER, is_active=True).first()
    return user is not None and user.check_password(DEMO_PASSWORD)


def secret_key_file(path: Path) -> Path:
    """The file holding the server's secret key, made with a new random key if missing.

    Only its owner may read it: the key signs sessions and the poll keys."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Created with no permissions for others from the start (no window where it is open).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(50) + "\n")
    if not path.read_text(encoding="utf-8").strip():
        raise CommandError(f"{path} is empty: delete it and a new key is made.")
    return path


def lan_addresses_for(host: str, given: list[str] | None) -> list[str]:
    """The addresses phones will be told to open for a server bound to ``host``."""
    if given:
        return given
    if host in ("0.0.0.0", "::", ""):
        return private_addresses()
    if is_private_ipv4(host):
        return [host]
    return []


def server_environment(
    base: dict[str, str],
    *,
    key_file: Path | None,
    addresses: list[str],
    https: bool,
) -> dict[str, str]:
    """The environment the server (and collectstatic) runs with."""
    env = dict(base)
    env["DEBUG"] = "0"
    env["SERVE_STATIC"] = "1"
    env["LAN_ADDRESSES"] = ",".join(addresses)
    if not env.get("SECRET_KEY"):
        if key_file is None:
            raise CommandError("No SECRET_KEY and no file to keep one in.")
        env["SECRET_KEY_FILE"] = str(key_file)
    # Plain HTTP on the table's Wi-Fi: a cookie marked Secure would never be sent back, and a
    # redirect to https:// would reach nothing. Each stays overridable, for a server behind a
    # proxy that does TLS. HSTS is never on here: a browser that learnt it would refuse the
    # laptop's plain address for a year (and a self-signed certificate would not satisfy it).
    secure = "1" if https else "0"
    env.setdefault("SECURE_SSL_REDIRECT", "0")
    env.setdefault("SESSION_COOKIE_SECURE", secure)
    env.setdefault("CSRF_COOKIE_SECURE", secure)
    env.setdefault("SECURE_HSTS_SECONDS", "0")
    env.setdefault("SECURE_HSTS_INCLUDE_SUBDOMAINS", "0")
    env.setdefault("SECURE_HSTS_PRELOAD", "0")
    return env


def phone_addresses(host: str, port: int, addresses: list[str], https: bool) -> list[str]:
    """What the terminal tells people to open, the first one as a QR code."""
    if settings.PUBLIC_URL:
        return [settings.PUBLIC_URL + "/"]
    scheme = "https" if https else "http"
    if addresses:
        return [f"{scheme}://{a}:{port}/" for a in addresses]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return [f"{scheme}://{shown}:{port}/"]


def granian_command(
    host: str, port: int, workers: int, cert: tuple[Path, Path] | None
) -> list[str]:
    """Granian over ASGI, running the site's WSGI application in two pools of threads of its
    own per worker (amnesia_site/lanes.py; their sizes reach it as THREADS and POLL_THREADS),
    and the push's websockets on its event loop (games/followers.py)."""
    command = [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        os.environ.get("SERVE_LOG_LEVEL", "warning"),
    ]
    if cert is not None:
        command += ["--ssl-certificate", str(cert[0]), "--ssl-keyfile", str(cert[1])]
    return [*command, "amnesia_site.served:application"]


class Command(BaseCommand):
    help = "Serve the site to the phones at the table: Granian, DEBUG off, static files served."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST") or "0.0.0.0")
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument(
            "--addresses",
            default=os.environ.get("LAN_ADDRESSES", ""),
            help="comma-separated addresses phones open (default: this machine's private ones)",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=int(os.environ.get("WORKERS") or 1),
            help="server processes (more than one wants REDIS_URL, see docs/serving.md)",
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=settings.THREADS,
            help="threads for pages and moves, per worker",
        )
        parser.add_argument(
            "--poll-threads",
            type=int,
            default=settings.POLL_THREADS,
            help="threads for the polls alone, per worker",
        )
        parser.add_argument(
            "--no-setup", action="store_true", help="skip migrate, the area cards and the demo"
        )
        parser.add_argument(
            "--no-collectstatic", action="store_true", help="the static files are collected"
        )
        parser.add_argument(
            "--https",
            action="store_true",
            help="HTTPS with the certificate in SERVE_CERT and SERVE_KEY (self-signed is fine)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="check and print, but start nothing"
        )
        parser.add_argument(
            "--no-workers",
            action="store_true",
            help="Granian alone: the tasks (books) wait for workers started elsewhere",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        host: str = opts["host"]
        port: int = opts["port"]
        # A port held already (an orphan server, another program): said before anything starts.
        if not opts["dry_run"] and (held := lifeline.refuse_if_held(host, port)):
            raise CommandError(held)
        if not opts["no_setup"]:
            call_command("migrate", interactive=False, verbosity=0)
            call_command("generate_area_cards")
            call_command("demo")
        if not is_loopback(host) and demo_password_in_use():
            raise CommandError(
                f"The demo account ({DEMO_USER}) still has the password the README publishes, "
                "and this server would answer anyone on the network. Change it:\n"
                f"    {manage_py('changepassword', DEMO_USER)}\n"
                "or switch the account off (its tables stay; it cannot log in):\n"
                f"    {manage_py('demo', '--retire')}\n"
                "then start again. (HOST=127.0.0.1 serves this machine only, demo and all.)"
            )
        key_file = None
        if not os.environ.get("SECRET_KEY"):
            raw = os.environ.get("SECRET_KEY_FILE") or str(settings.BASE_DIR / DEFAULT_KEY_FILE)
            key_file = secret_key_file(Path(raw))
        given = [a.strip() for a in opts["addresses"].split(",") if a.strip()]
        addresses = lan_addresses_for(host, given)
        cert = self._certificate() if opts["https"] else None
        env = server_environment(
            dict(os.environ), key_file=key_file, addresses=addresses, https=cert is not None
        )
        if opts["threads"] < 1 or opts["poll_threads"] < 1:
            raise CommandError("--threads and --poll-threads must be 1 or more.")
        # The sizes of the app's two pools (amnesia_site/served.py reads them from settings).
        env["THREADS"] = str(opts["threads"])
        env["POLL_THREADS"] = str(opts["poll_threads"])
        # How many processes serve (games/followers.py: without Redis, several turn the push off).
        env["WORKERS"] = str(opts["workers"])
        if opts["workers"] > 1 and not env.get("REDIS_URL"):
            self.stderr.write(
                "Several workers without REDIS_URL: each counts wrong seat links on its own, "
                "and the pages follow the table by polls alone (no push)."
            )
        urls = phone_addresses(host, port, addresses, cert is not None)
        if opts["dry_run"]:
            self.stdout.write("\n".join(urls))
            return
        if not opts["no_collectstatic"]:
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                cwd=settings.BASE_DIR,
                env=env,
                check=True,
            )
        self._banner(host, port, urls, workers=not opts["no_workers"])
        command = granian_command(host, port, opts["workers"], cert)
        sys.stdout.flush()
        sys.stderr.flush()
        workers = {} if opts["no_workers"] else worker_commands()
        supervisor = Supervisor(("server", command), workers, env=env, cwd=str(settings.BASE_DIR))
        raise SystemExit(supervisor.run())

    def _certificate(self) -> tuple[Path, Path]:
        cert, key = os.environ.get("SERVE_CERT", ""), os.environ.get("SERVE_KEY", "")
        if not cert or not key or not Path(cert).is_file() or not Path(key).is_file():
            raise CommandError(
                "--https needs SERVE_CERT and SERVE_KEY: a certificate and its key (PKCS#8). "
                "A self-signed pair for this laptop, valid a year:\n"
                "    openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=amnesia-table "
                "-keyout serve-key.pem -out serve-cert.pem"
            )
        return Path(cert), Path(key)

    def _banner(self, host: str, port: int, urls: list[str], workers: bool = True) -> None:
        out = self.stdout
        out.write("")
        beside = ", with its workers" if workers else ", no workers (--no-workers)"
        out.write(f"Amnesia Table is serving on {host}:{port} (Granian, DEBUG off){beside}.")
        if len(urls) == 1:
            out.write(f"Phones on this network open: {urls[0]}")
        else:
            out.write("Phones on this network open one of (the first is the QR code):")
            for url in urls:
                out.write(f"    {url}")
        if is_loopback(urls[0].split("//", 1)[1].split(":", 1)[0].split("/", 1)[0]):
            out.write("This address is this machine only: no phone can open it.")
        code = qrcode.QRCode(border=1)
        code.add_data(urls[0])
        code.make(fit=True)
        code.print_ascii(out=sys.stdout, invert=True)
        out.write("Changed network? Stop (Ctrl-C) and start again: the addresses are read now.")
        out.write("")
