"""The processes of `scripts/cluster` on loopback: PostgreSQL, moto as S3, API nodes, workers, nginx.

Everything runs from Debian/PyPI packages and the built `server`; every process is a child of the script, its
files live in one run folder, and `Cluster.stop()` ends them all (Ctrl-C, or the end of the drill).
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
from nginx_front import start_nginx, stop_nginx  # noqa: E402
HELPPET_BUCKET = "helppet-cluster-recordings"
AUTODETAIL_BUCKET = "autodetail-cluster"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_status(url: str, timeout: float = 2) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout, OSError):
        return None


def wait_until(predicate, timeout: float, what: str, interval: float = 0.2) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")


class Node:
    """One `server` process (API node or worker) that can be killed and started again on the same settings."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path, port: int | None):
        self.name, self.argv, self.env, self.log, self.port = name, argv, env, log, port
        self.process: subprocess.Popen | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.argv, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

    def wait_ready(self, timeout: float = 180) -> None:
        def ready() -> bool:
            if not self.running():
                raise RuntimeError(f"{self.name} exited:\n" + self.log.read_text(errors="replace")[-3000:])
            if self.port is None:
                return "Worker running" in self.log.read_text(errors="replace")
            return http_status(f"http://127.0.0.1:{self.port}/health/ready") == 200
        wait_until(ready, timeout, f"{self.name} to be ready")

    def kill9(self) -> None:
        if self.running():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.running():
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill9()


class Cluster:
    """Starts the whole topology. `server_bin`: the `server` executable to run."""

    def __init__(self, server_bin: Path, api_nodes: int = 2, workers: int = 2, database_url: str | None = None,
                 drill: bool = False, lb_port: int | None = None):
        self.server_bin, self.drill = server_bin, drill
        self.run_dir = Path(tempfile.mkdtemp(prefix="helppet-cluster-"))
        self.external_database = database_url
        self.database_url = database_url or ""
        self.pg_root: Path | None = None
        self.pg_bin: Path | None = None
        self.pg_options = ""
        self.moto: subprocess.Popen | None = None
        self.nginx: subprocess.Popen | None = None
        self.lb_port = lb_port or free_port()
        self.api: list[Node] = []
        self.workers: list[Node] = []
        self.api_count, self.worker_count = api_nodes, workers
        self.jwt_secret = secrets.token_hex(32)
        self.admin_password = "cluster-admin-" + secrets.token_hex(6)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.lb_port}"

    # PostgreSQL -------------------------------------------------------------------------------------------------

    def _as_postgres(self, argv: list[str]) -> list[str]:
        """initdb/pg_ctl refuse to run as root: run them as the `postgres` user then (as .ci/run does)."""
        return ["runuser", "-u", "postgres", "--"] + argv if os.geteuid() == 0 else argv

    def start_postgres(self) -> None:
        if self.external_database:
            return
        candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: [int(x) for x in p.parent.name.split(".") if x.isdigit()])
        if not candidates or not (candidates[-1] / "initdb").exists():
            raise RuntimeError("PostgreSQL is not installed (apt-get install -y postgresql), or pass DATABASE_URL")
        self.pg_bin = candidates[-1]
        self.pg_root = Path(tempfile.mkdtemp(prefix="helppet-cluster-pg-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.pg_root, user.pw_uid, user.pw_gid)
        subprocess.run(self._as_postgres([str(self.pg_bin / "initdb"), "-D", str(self.pg_root / "data"), "-U", "postgres",
                                          "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
        port = free_port()
        # A throwaway cluster: durability settings off, enough connections for 4 nodes × pool + the drill's psql.
        self.pg_options = (f"-h 127.0.0.1 -p {port} -k {self.pg_root} -c max_connections=200 -c fsync=off "
                           "-c synchronous_commit=off -c full_page_writes=off")
        self.pg_start()
        self.database_url = f"postgres://postgres@127.0.0.1:{port}/postgres?sslmode=disable"

    def pg_start(self) -> None:
        subprocess.run(self._as_postgres([str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_root / "data"), "-l",
                                          str(self.pg_root / "postgres.log"), "-w", "-t", "60", "-o", self.pg_options,
                                          "start"]), check=True, stdout=subprocess.DEVNULL, cwd="/")

    def pg_stop(self, mode: str = "fast") -> None:
        subprocess.run(self._as_postgres([str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_root / "data"), "-m", mode,
                                          "-w", "stop"]), check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd="/")

    def psql(self, sql: str) -> list[list[str]]:
        """Rows of one query (psql, unaligned, tab-separated)."""
        out = subprocess.run(["psql", self.database_url, "-X", "-At", "-F", "\t", "-c", sql], check=True,
                             capture_output=True, text=True, timeout=30).stdout
        return [line.split("\t") for line in out.splitlines() if line]

    # S3 (moto) --------------------------------------------------------------------------------------------------

    def start_moto(self) -> None:
        moto = shutil.which("moto_server") or str(ROOT / ".build-ci" / "python-tools" / "bin" / "moto_server")
        if not Path(moto).exists():
            raise RuntimeError("moto_server not found: pip install 'moto[server]' (.ci/run installs it into "
                               ".build-ci/python-tools)")
        self.moto_port = free_port()
        with open(self.run_dir / "moto.log", "ab") as log:
            self.moto = subprocess.Popen([moto, "-H", "127.0.0.1", "-p", str(self.moto_port)], stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(lambda: http_status(self.s3_endpoint) is not None, 60, "moto to answer")
        for bucket in (HELPPET_BUCKET, AUTODETAIL_BUCKET):
            # moto accepts unsigned requests: the buckets exist before any node starts (operators provision them).
            urllib.request.urlopen(urllib.request.Request(f"{self.s3_endpoint}/{bucket}", method="PUT"), timeout=10)

    @property
    def s3_endpoint(self) -> str:
        return f"http://127.0.0.1:{self.moto_port}"

    # Nodes ------------------------------------------------------------------------------------------------------

    def node_env(self, name: str) -> dict[str, str]:
        data_dir = self.run_dir / name
        data_dir.mkdir(exist_ok=True)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
            "DATA_DIR": str(data_dir), "DATABASE_URL": self.database_url, "DATABASE_POOL_SIZE": "8",
            "STORAGE_BACKEND": "s3", "S3_ENDPOINT": self.s3_endpoint, "S3_FORCE_PATH_STYLE": "true",
            "AWS_ACCESS_KEY_ID": "cluster", "AWS_SECRET_ACCESS_KEY": "cluster-secret-key",
            "HELPPET_BUCKET": HELPPET_BUCKET, "AUTODETAIL_BUCKET": AUTODETAIL_BUCKET,
            "PUBLIC_BASE_URL": self.url, "JWT_SECRET": self.jwt_secret, "ADMIN_PASSWORD": self.admin_password,
            "TRUSTED_PROXIES": "127.0.0.1", "LOG_LEVEL": os.environ.get("CLUSTER_LOG_LEVEL", "warning"),
            "SEED_DEMO_DATA": "true",
            "TRANSCRIPTION_ENGINE": os.environ.get("CLUSTER_TRANSCRIPTION_ENGINE",
                                                   "pocketsphinx" if shutil.which("pocketsphinx_continuous") else "off"),
        }
        if self.drill:
            # Fast cadences so the drill sees takeovers within seconds instead of minutes.
            env.update({"BCRYPT_COST": "4", "RECONCILER_INTERVAL_SECONDS": "1", "RECONCILER_GRACE_SECONDS": "2",
                        "TRANSCRIPTION_POLL_INTERVAL_SECONDS": "0.3", "TRANSCRIPTION_LEASE_SECONDS": "8",
                        "TRANSCRIPTION_RETRY_DELAYS_SECONDS": "1,1"})
        return env

    def start_nodes(self) -> None:
        for i in range(1, self.api_count + 1):
            port = free_port()
            name = f"api-{i}"
            self.api.append(Node(name, [str(self.server_bin), "serve", "--no-worker", "--hostname", "127.0.0.1",
                                        "--port", str(port)], self.node_env(name), self.run_dir / f"{name}.log", port))
        for i in range(1, self.worker_count + 1):
            name = f"worker-{i}"
            self.workers.append(Node(name, [str(self.server_bin), "worker"], self.node_env(name),
                                     self.run_dir / f"{name}.log", None))
        # The first node migrates and seeds alone; the others then start together.
        self.api[0].start()
        self.api[0].wait_ready()
        for node in self.api[1:] + self.workers:
            node.start()
        for node in self.api[1:] + self.workers:
            node.wait_ready()

    # nginx ------------------------------------------------------------------------------------------------------

    def start_nginx(self) -> None:
        self.nginx = start_nginx(self.run_dir, [node.port for node in self.api], self.lb_port)
        wait_until(lambda: http_status(self.url + "/health/ready") == 200, 30, "nginx to proxy /health/ready")

    # Whole cluster ----------------------------------------------------------------------------------------------

    def start(self) -> None:
        self.start_postgres()
        self.start_moto()
        self.start_nodes()
        self.start_nginx()

    def stop(self) -> None:
        stop_nginx(self.nginx)
        for node in self.api + self.workers:
            node.stop()
        if self.moto and self.moto.poll() is None:
            self.moto.terminate()
            try:
                self.moto.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.moto.kill()
        if self.pg_root:
            self.pg_stop("immediate")
            shutil.rmtree(self.pg_root, ignore_errors=True)

    def cleanup(self, keep: bool = False) -> None:
        if not keep:
            shutil.rmtree(self.run_dir, ignore_errors=True)
