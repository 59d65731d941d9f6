"""A real, throw-away PostgreSQL server for the tests (no mock, no external service).

:func:`start` finds the server binaries (Debian's ``postgresql`` package installs them under
``/usr/lib/postgresql/<version>/bin``; ``PG_BINDIR`` overrides), runs ``initdb`` in a fresh temporary
directory, starts ``postgres`` on a free localhost port with password authentication, and creates a
login role with a password. ``initdb`` and ``postgres`` refuse to run as root: as root they run as the
unprivileged ``postgres`` user (``runuser``) with the directory owned by it. :meth:`PgServer.stop` shuts
the server down and removes the directory. :meth:`PgServer.new_database` gives each test its own
database (owned by the test role) so tests do not see each other's tables.

Used by the ``pg_server`` session fixture in ``tests/conftest.py``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SUPERUSER = "ldiv_admin"
ROLE = "ldiv_tester"


class ServerUnavailable(RuntimeError):
    """The server cannot be started here (no binaries, no unprivileged user, ...)."""


def find_bindir() -> Path | None:
    """The directory holding ``initdb`` and ``postgres`` (the newest installed version)."""
    env = os.environ.get("PG_BINDIR")
    if env:
        return Path(env) if (Path(env) / "initdb").exists() else None
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3].split(".")[0])
    )
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).resolve().parent if which else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    bindir: Path
    root: Path
    port: int
    password: str
    run_as: str | None
    startup_seconds: float = 0.0
    _proc: subprocess.Popen[bytes] | None = None
    _databases: list[str] = field(default_factory=list)

    host = "127.0.0.1"

    def url(self, dbname: str, *, user: str = ROLE, with_password: bool = True) -> str:
        secret = f":{self.password}" if with_password else ""
        return f"postgresql://{user}{secret}@{self.host}:{self.port}/{dbname}"

    def admin(self, dbname: str = "postgres"):  # type: ignore[no-untyped-def]
        import psycopg

        return psycopg.connect(
            host=self.host,
            port=self.port,
            user=SUPERUSER,
            password=self.password,
            dbname=dbname,
            autocommit=True,
        )

    def new_database(self, prefix: str = "t") -> str:
        """A fresh database owned by the test role; returns its name."""
        name = f"{prefix}_{len(self._databases)}_{secrets.token_hex(3)}"
        with self.admin() as con:
            con.execute(f'CREATE DATABASE "{name}" OWNER {ROLE}')
        self._databases.append(name)
        return name

    def halt(self) -> None:
        """Stop the server as an operator would mid-work ("fast" shutdown: sessions are ended, their
        transactions rolled back), keeping its data for :meth:`resume`."""
        cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "fast", "-w", "stop"]
        subprocess.run(_as_user(cmd, self.run_as), check=True, capture_output=True)
        if self._proc is not None:
            self._proc.wait(timeout=20)

    def resume(self, timeout: float = 60.0) -> None:
        """Start the halted server again on its port, with its data."""
        _launch(self)
        _wait_ready(self, time.monotonic() + timeout)

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()  # SIGTERM: "smart" shutdown; fast enough with idle sessions gone
            try:
                self._proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


def _as_user(cmd: list[str], run_as: str | None) -> list[str]:
    return ["runuser", "-u", run_as, "--", *cmd] if run_as else cmd


def _wait_ready(server: PgServer, deadline: float) -> None:
    import psycopg

    last: Exception | None = None
    while time.monotonic() < deadline:
        if server._proc is not None and server._proc.poll() is not None:
            log = (server.root / "server.log").read_text(errors="replace")[-2000:]
            raise ServerUnavailable(f"postgres exited with code {server._proc.returncode}: {log}")
        try:
            with server.admin():
                return
        except psycopg.OperationalError as exc:
            last = exc
            time.sleep(0.05)
    raise ServerUnavailable(f"postgres did not accept connections in time: {last}")


def _initdb(server: PgServer) -> None:
    root, data = server.root, server.root / "data"
    (root / "pw").write_text(server.password + "\n")
    if server.run_as:
        entry = pwd.getpwnam(server.run_as)
        os.chown(root, entry.pw_uid, entry.pw_gid)
        os.chown(root / "pw", entry.pw_uid, entry.pw_gid)
    os.chmod(root, 0o700)
    cmd = [str(server.bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, f"--pwfile={root / 'pw'}"]
    cmd += ["--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"]
    try:
        subprocess.run(_as_user(cmd, server.run_as), check=True, capture_output=True)
    except subprocess.CalledProcessError as exc:
        raise ServerUnavailable(f"initdb failed: {exc.stderr.decode(errors='replace')[-1000:]}") from exc
    finally:
        (root / "pw").unlink(missing_ok=True)


def _launch(server: PgServer) -> None:
    settings = {
        "listen_addresses": "127.0.0.1",
        "unix_socket_directories": str(server.root),
        "fsync": "off",  # a throw-away server: durability buys nothing here
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "40",
    }
    cmd = [str(server.bindir / "postgres"), "-D", str(server.root / "data"), "-p", str(server.port)]
    for key, value in settings.items():
        cmd += ["-c", f"{key}={value}"]
    log = open(server.root / "server.log", "wb")  # noqa: SIM115 - owned by the server process
    server._proc = subprocess.Popen(_as_user(cmd, server.run_as), stdout=log, stderr=subprocess.STDOUT)


def start(timeout: float = 60.0) -> PgServer:
    """Start a server in a new temporary directory; raises :class:`ServerUnavailable` with the reason."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise ServerUnavailable("psycopg is not installed (pip install 'ldiv_db[postgres]')") from exc
    bindir = find_bindir()
    if bindir is None:
        raise ServerUnavailable("no PostgreSQL server binaries (apt-get install postgresql)")
    run_as: str | None = None
    if os.geteuid() == 0:
        run_as = "postgres"
        try:
            pwd.getpwnam(run_as)
        except KeyError as exc:
            raise ServerUnavailable("running as root and there is no 'postgres' user") from exc
        if shutil.which("runuser") is None:
            raise ServerUnavailable("running as root and runuser is missing")
    t0 = time.monotonic()
    server = PgServer(
        bindir, Path(tempfile.mkdtemp(prefix="ldiv_pg_")), _free_port(), secrets.token_urlsafe(16), run_as
    )
    try:
        _initdb(server)
        _launch(server)
        _wait_ready(server, time.monotonic() + timeout)
        with server.admin() as con:
            con.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{server.password}'")
        server.startup_seconds = time.monotonic() - t0
    except BaseException:
        with contextlib.suppress(Exception):
            server.stop()
        raise
    return server
