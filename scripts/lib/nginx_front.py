"""nginx on loopback with the committed site configuration (deploy/nginx/helppet.conf), in front of API nodes on
given ports. Used by `scripts/cluster` and the idle-connections drill, so both test the file a deployment uses: only
the upstream addresses and the listen port are replaced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE_TEMPLATE = ROOT / "deploy" / "nginx" / "helppet.conf"


def nginx_binary() -> str | None:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    return found if Path(found).exists() else None


def site_config(upstream_ports: list[int], listen_port: int) -> str:
    """The committed site file with this run's upstream ports (one or more) and listen port."""
    site = SITE_TEMPLATE.read_text()
    ports = list(upstream_ports) + [upstream_ports[-1]] * max(0, 2 - len(upstream_ports))
    site = site.replace("server 127.0.0.1:8081 ", f"server 127.0.0.1:{ports[0]} ")
    site = site.replace("server 127.0.0.1:8082 ", f"server 127.0.0.1:{ports[1]} ")
    for port in ports[2:]:
        site = site.replace("    keepalive 64;", f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=3s;\n    keepalive 64;")
    return site.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{listen_port};")


def start_nginx(run_dir: Path, upstream_ports: list[int], listen_port: int) -> subprocess.Popen:
    """Starts nginx in the foreground of a child process, every file under `run_dir`."""
    nginx = nginx_binary()
    if nginx is None:
        raise RuntimeError("nginx not found: apt-get install -y nginx")
    (run_dir / "helppet.conf").write_text(site_config(upstream_ports, listen_port))
    temp = run_dir / "nginx-temp"
    temp.mkdir(exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""
    (run_dir / "nginx.conf").write_text(f"""{user}worker_processes 1;
daemon off;
pid {run_dir}/nginx.pid;
error_log {run_dir}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {run_dir}/nginx-access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {run_dir}/helppet.conf;
}}
""")
    with open(run_dir / "nginx.log", "ab") as log:
        return subprocess.Popen([nginx, "-c", str(run_dir / "nginx.conf"), "-p", str(run_dir)],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def stop_nginx(process: subprocess.Popen | None) -> None:
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
