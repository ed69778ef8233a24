"""A real PostgreSQL (Debian's ``postgresql`` package) for the tests, and PgBouncer before it.

:class:`Postgres` runs ``initdb`` and ``pg_ctl`` in a temporary folder, listening on
127.0.0.1 at a free port only (no Unix socket), and stops and removes it after. PostgreSQL
refuses to run as root, and CI runs the tests as root: then the server runs as the
``postgres`` user that the package creates (subprocess's ``user=``), in a folder it owns.
Without the binaries a test skips with the reason; under CI=true it fails instead.

Fixtures (import ``postgres_fixture, pg_url_fixture`` into a test module): ``postgres`` (one
server for the test session of each worker) and ``pg_url`` (a new, empty database per test).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = [
    "PgBouncer",
    "Postgres",
    "binary",
    "free_port",
    "pg_url_fixture",
    "postgres_fixture",
    "require",
]

IN_CI = os.environ.get("CI") == "true"
USER = "fivecrowns"  # the database superuser initdb makes (trust auth on loopback)


def require(why: str) -> None:
    """Skip with ``why``, except under CI=true, where a missing component fails the test."""
    if IN_CI:
        pytest.fail(f"PostgreSQL must be installed in CI (scripts/setup): {why}")
    pytest.skip(why)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def binary(name: str) -> str | None:
    """Debian keeps PostgreSQL's programs in /usr/lib/postgresql/VERSION/bin, off the PATH."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return candidates[-1] if candidates else None


def _run_as() -> tuple[int | None, int | None]:
    """The user and group to run PostgreSQL as: ourselves, or ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return None, None
    try:
        entry = pwd.getpwnam("postgres")
    except KeyError:
        require("running as root needs the postgres user, which Debian's package makes")
    return entry.pw_uid, entry.pw_gid


class Postgres:
    """One PostgreSQL server in a temporary folder; :meth:`database` makes a fresh database."""

    def __init__(self, fsync: bool = False) -> None:
        # why fsync off by default: the tests kill the game server, never PostgreSQL, so what
        # a committed transaction survives is not in question, and the suite runs faster
        self.fsync = fsync
        self.port = 0
        self.folder: Path | None = None
        self._databases = itertools.count(1)

    def start(self) -> Postgres:
        initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            require("PostgreSQL's initdb and pg_ctl are not installed (Debian: postgresql)")
        assert initdb is not None and pg_ctl is not None
        uid, gid = _run_as()
        self._as = {"user": uid, "group": gid, "extra_groups": []} if uid is not None else {}
        self.folder = Path(tempfile.mkdtemp(prefix="fivecrowns-pg-"))
        if uid is not None:
            os.chown(self.folder, uid, gid or 0)
        self.port = free_port()
        data = self.folder / "data"
        self._pg_ctl = pg_ctl
        self._run([initdb, "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "-N"])
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories='' "
            f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=50"
        )
        log = self.folder / "server.log"
        self._run(
            [pg_ctl, "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "60", "start"]
        )
        return self

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=self.folder,
            **self._as,  # type: ignore[arg-type]
        )
        if done.returncode != 0:
            raise AssertionError(f"{command[0]} failed: {done.stdout}{done.stderr}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database's address."""
        import psycopg

        name = f"test{next(self._databases)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.folder is None:
            return
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            self._run([self._pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


class PgBouncer:
    """PgBouncer (Debian's ``pgbouncer``) in transaction mode before ``server``'s database
    ``database``, on 127.0.0.1 at a free port; its admin console is the ``pgbouncer`` database."""

    def __init__(self, server: Postgres, database: str) -> None:
        self.server = server
        self.database = database
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> PgBouncer:
        program = binary("pgbouncer") or (
            "/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None
        )
        if program is None:
            require("PgBouncer is not installed (Debian: pgbouncer)")
        assert program is not None and self.server.folder is not None
        self.port = free_port()
        folder = self.server.folder
        users = folder / "users.txt"
        users.write_text(f'"{USER}" ""\n')
        config = folder / "pgbouncer.ini"
        config.write_text(
            "[databases]\n"
            f"{self.database} = host=127.0.0.1 port={self.server.port} dbname={self.database}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {users}\nadmin_users = {USER}\n"
            "pool_mode = transaction\ndefault_pool_size = 2\n"
            f"logfile = {folder / 'pgbouncer.log'}\n"
        )
        uid, gid = _run_as()
        if uid is not None:
            for path in (users, config):
                os.chown(path, uid, gid or 0)
        self.proc = subprocess.Popen(
            [program, str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            **({"user": uid, "group": gid, "extra_groups": []} if uid is not None else {}),  # type: ignore[arg-type]
        )
        self._wait()
        return self

    def _wait(self) -> None:
        import time

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                assert self.proc.stderr is not None
                raise AssertionError(f"pgbouncer stopped: {self.proc.stderr.read()}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1),
            ):
                return
            time.sleep(0.05)
        raise AssertionError("pgbouncer did not start listening in 30 s")

    def url(self, database: str | None = None) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database or self.database}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


# name=: the functions' own names stay free, so a test's argument does not shadow them
@pytest.fixture(name="postgres", scope="session")
def postgres_fixture() -> Iterator[Postgres]:
    server = Postgres().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(name="pg_url")
def pg_url_fixture(postgres: Postgres) -> str:
    return postgres.database()
