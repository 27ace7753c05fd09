"""Starting the built `server` for the repository's scripts (log check, fault drills), standard library only.

One place for what every script needs: the binary, a free loopback port, a start that waits for `/health` (and
fails with the log when the process dies), and a throwaway PostgreSQL database next to the one DATABASE_URL names.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = Path(os.environ.get("SERVER_BINARY", ROOT / ".build" / "debug" / "server"))


def is_postgres(url: str | None) -> bool:
    return bool(url) and url.startswith(("postgres://", "postgresql://"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/health", timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout, OSError):
        return False


def start_server(env: dict[str, str], log_path: Path, port: int, timeout: float = 120) -> subprocess.Popen:
    """`server serve` on 127.0.0.1:`port` with exactly `env`, output appended to `log_path`; returns once
    `/health` answers 200. Raises SystemExit with the log's tail when it does not start."""
    with open(log_path, "ab") as log:
        process = subprocess.Popen([str(SERVER), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
                                   env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if healthy(f"http://127.0.0.1:{port}"):
            return process
        time.sleep(0.2)
    process.kill()
    raise SystemExit(f"{SERVER.name} did not start:\n" + log_path.read_text(errors="replace")[-3000:])


def stop_server(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 30 s."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def create_postgres_database(admin_url: str, prefix: str) -> tuple[str, str]:
    """A fresh database next to the one `admin_url` names (created with psql): (its URL, its name)."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", admin_url, "-q", "-c", f'CREATE DATABASE "{name}"'], check=True)
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(admin_url)._replace(path="/" + name)), name


def drop_postgres_database(admin_url: str, name: str) -> None:
    subprocess.run(["psql", admin_url, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], check=False)
