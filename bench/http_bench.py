#!/usr/bin/env python3
"""HTTP benchmark driver of bench/run (which installs wrk, builds the release server and provides PostgreSQL).

Per engine: a fresh DATA_DIR (and a fresh PostgreSQL database), `server bench-seed` (the dataset), `server serve`,
logins and the AutoDetail studio set-up over HTTP, then one wrk run per endpoint (short warm-up first, discarded)
with bench/wrk_requests.lua replaying a generated request file, while the server's VmRSS is sampled from
/proc/PID/status. Then the login storm: /health latency with and without 50 concurrent logins. Prints a table per
engine and the targets, and writes everything to bench/results/<date>-http.txt. Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("SERVER_BINARY", str(ROOT / ".build-bench" / "release" / "server"))
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
import local_server  # noqa: E402  (reads SERVER_BINARY)

LUA = ROOT / "bench" / "wrk_requests.lua"
ADMIN_PASSWORD = "bench-admin-password-1"
THREADS = 2

DATASETS = {
    "full": {"practices": 20, "vets": 200, "owners": 4000, "appointments": 20000, "records": 50000, "visits": 20000},
    "quick": {"practices": 4, "vets": 20, "owners": 400, "appointments": 2000, "records": 5000, "visits": 2000},
}


# ---------------------------------------------------------------------------------------------------------------- HTTP

def call(base, method, path, body=None, token=None, form=None, headers=None, expect=(200, 201)):
    data, ctype = None, None
    if form is not None:
        data, ctype = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    elif body is not None:
        data, ctype = json.dumps(body).encode(), "application/json"
    req = urllib.request.Request(base + path, data=data, method=method)
    if ctype:
        req.add_header("Content-Type", ctype)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    if status not in expect:
        raise SystemExit(f"{method} {path}: {status} {raw[:500]!r}")
    return json.loads(raw) if raw else None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def console_session(base, username, password):
    """The clinic console's session cookie value, from its own sign-in form (303 + Set-Cookie)."""
    opener = urllib.request.build_opener(_NoRedirect())
    body = urllib.parse.urlencode({"username": username, "password": password}).encode()
    request = urllib.request.Request(base + "/clinic/login", data=body, method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        opener.open(request, timeout=60)
    except urllib.error.HTTPError as answer:
        cookie = answer.headers.get("Set-Cookie", "")
        if answer.code == 303 and cookie.startswith("helppet_session="):
            return cookie.split(";")[0].split("=", 1)[1]
        raise SystemExit(f"console sign-in failed: {answer.code}")
    raise SystemExit("console sign-in did not redirect")


def console_etag(base, path, headers):
    """The ETag of a console fragment once the data has settled (a change in the last two seconds keeps it moving)."""
    time.sleep(3)
    request = urllib.request.Request(base + path, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return answer.headers["ETag"]


def multipart_post(url, fields, payload, content_type):
    boundary = "bench" + uuid.uuid4().hex
    parts = [f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n".encode()
             for k, v in fields.items()]
    parts.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bench.m4a\"\r\n"
                 f"Content-Type: {content_type}\r\n\r\n".encode() + payload + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    req = urllib.request.Request(url, data=b"".join(parts), method="POST")
    req.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    with urllib.request.urlopen(req, timeout=60) as r:
        if r.status // 100 != 2:
            raise SystemExit(f"upload to {url}: {r.status}")


# ------------------------------------------------------------------------------------------------------------ sampling

def rss_kib(pid, field="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_idle(pid, limit=120):
    """Waits until the server uses less than 5 % of a core: logins a client gave up on are still hashed (bcrypt
    work queued in the hasher pool is not cancelled), which would otherwise load the next run."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        if cpu_seconds(pid) - before < 0.025:
            return
    print(f"warning: the server was still busy {limit} s after the run", flush=True)


class RSSSampler(threading.Thread):
    """Peak VmRSS, and the peaks of its two parts: RssAnon (the heap, stacks: what the process allocates) and
    RssFile (pages of the binary and the libraries mapped from their files: shared and reclaimable)."""

    # The parts' peaks over every sampler of the process, for the run's summary.
    part_peaks = {}

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0, threading.Event()

    def sample(self):
        self.peak = max(self.peak, rss_kib(self.pid))
        for field in ("RssAnon", "RssFile"):
            RSSSampler.part_peaks[field] = max(RSSSampler.part_peaks.get(field, 0), rss_kib(self.pid, field))

    def run(self):
        while not self.stopped.is_set():
            self.sample()
            self.stopped.wait(0.05)

    def stop(self):
        self.stopped.set()
        self.join()
        self.sample()
        return self.peak


# ------------------------------------------------------------------------------------------------------------- wrk

def write_requests(path, rows):
    """rows: (method, path, {header: value}, body or None); one tab-separated line each (see wrk_requests.lua)."""
    with open(path, "w") as f:
        for method, p, headers, body in rows:
            h = "\r".join(f"{k}: {v}" for k, v in headers.items())
            b = "" if body is None else (body if isinstance(body, str) else json.dumps(body, separators=(",", ":")))
            assert "\t" not in b and "\n" not in b
            f.write(f"{method}\t{p}\t{h}\t{b}\n")


BENCH_LINE = re.compile(r"^BENCH (.*)$", re.M)


def wrk(base, requests_file, seconds, connections, threads=THREADS, offset=0, timeout=10):
    env = dict(os.environ, BENCH_REQUESTS=str(requests_file), BENCH_THREADS=str(threads), BENCH_OFFSET=str(offset))
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", f"--timeout={timeout}s",
           "-s", str(LUA), base]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    m = BENCH_LINE.search(out.stdout)
    if out.returncode != 0 or not m:
        raise SystemExit(f"wrk failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    fields = dict(kv.split("=", 1) for kv in m.group(1).split(" "))
    result = {k: int(v) for k, v in fields.items() if k != "statuses"}
    result["statuses"] = {int(s): int(c) for s, c in (x.split(":") for x in fields["statuses"].split(",") if x)}
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    return result


class Runner:
    def __init__(self, base, pid, seconds, warmup, connections):
        self.base, self.pid = base, pid
        self.seconds, self.warmup, self.connections = seconds, warmup, connections

    def measure(self, requests_file, distinct=False, timeout=10, connections=None):
        c = connections or self.connections
        offset = 0
        if self.warmup > 0:
            w = wrk(self.base, requests_file, self.warmup, c, timeout=timeout)
            if distinct:
                offset = w["max_index"] + 1
        sampler = RSSSampler(self.pid)
        sampler.start()
        r = wrk(self.base, requests_file, self.seconds, c, offset=offset, timeout=timeout)
        r["peak_rss_kib"] = sampler.stop()
        if not distinct:
            r["wrapped"] = 0  # lists of ids are meant to be replayed
        return r


# -------------------------------------------------------------------------------------------------------- one engine

def utc_today():
    return datetime.datetime.now(datetime.timezone.utc).date()


PGBENCH_TPS = re.compile(r"^tps = ([0-9.]+)", re.M)


def pgbench_select_only(admin_url, seconds, clients):
    """The ceiling of the read path: `pgbench -S` (one primary-key SELECT per transaction) at `clients` clients against
    the same PostgreSQL, in a throwaway database (scale 1). Returns transactions per second."""
    url, name = local_server.create_postgres_database(admin_url, "bench_pgbench")
    try:
        init = subprocess.run(["pgbench", "-i", "-q", "-s", "1", url], capture_output=True, text=True)
        if init.returncode != 0:
            raise SystemExit(f"pgbench -i failed:\n{init.stderr[-2000:]}")
        out = subprocess.run(["pgbench", "-S", "-n", "-c", str(clients), "-j", str(THREADS), "-T", str(seconds), url],
                             capture_output=True, text=True)
        m = PGBENCH_TPS.search(out.stdout)
        if out.returncode != 0 or not m:
            raise SystemExit(f"pgbench -S failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
        return float(m.group(1))
    finally:
        local_server.drop_postgres_database(admin_url, name)


def run_engine(engine, args, workdir):
    dataset = DATASETS["quick" if args.quick else "full"]
    data_dir = Path(tempfile.mkdtemp(prefix=f"bench-http-{engine}-", dir=workdir))
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    # Every wrk connection comes from 127.0.0.1, and logins in flight count against the per-IP failure cap (they are
    # reserved before bcrypt, docs/login-and-sessions.md): 50 concurrent logins of the storm would meet the default
    # cap of 50, so the benchmark raises it; the per-(username, IP) limit stays as it is.
    env.update(DATA_DIR=str(data_dir), LOG_LEVEL="warning", TRANSCRIPTION_ENGINE="off", SEED_DEMO_DATA="false",
               ADMIN_PASSWORD=ADMIN_PASSWORD, LOGIN_IP_MAX_FAILURES="100000")
    db_name = None
    if engine == "postgres":
        env["DATABASE_URL"], db_name = local_server.create_postgres_database(args.postgres_url, "bench_http")
    report = {"engine": engine}
    try:
        manifest_path = data_dir / "manifest.json"
        t0 = time.monotonic()
        seed = [str(local_server.SERVER), "bench-seed", "--manifest", str(manifest_path)]
        for k, v in dataset.items():
            seed += [f"--{k}", str(v)]
        out = subprocess.run(seed, env=env, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"bench-seed failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
        manifest = json.loads(manifest_path.read_text())
        report["counts"] = manifest["counts"]
        report["seed_seconds"] = time.monotonic() - t0
        print(f"[{engine}] seeded in {report['seed_seconds']:.0f} s: "
              + ", ".join(f"{k} {v}" for k, v in sorted(manifest["counts"].items())), flush=True)

        port = local_server.free_port()
        process = local_server.start_server(env, data_dir / "server.log", port)
        try:
            report.update(drive(engine, f"http://127.0.0.1:{port}", process.pid, manifest, data_dir, args))
        finally:
            local_server.stop_server(process)
        if engine == "postgres":
            # In the same run, with the server stopped: what the same PostgreSQL answers with no HTTP in front.
            report["pgbench_tps"] = pgbench_select_only(args.postgres_url, args.duration, args.connections)
            print(f"[{engine}] pgbench -S, {args.connections} clients: {report['pgbench_tps']:.0f} tps", flush=True)
    finally:
        if db_name:
            local_server.drop_postgres_database(args.postgres_url, db_name)
        if not args.keep:
            shutil.rmtree(data_dir, ignore_errors=True)
    return report


def drive(engine, base, pid, manifest, data_dir, args):
    password = manifest["vet_password"]
    practices = manifest["practices"]
    runner = Runner(base, pid, args.duration, args.warmup, args.connections)
    reqdir = data_dir / "requests"
    reqdir.mkdir()

    # Logins: the first vet of every practice (initiate spreads over all practices, each with its own vet).
    def login(username):
        return call(base, "POST", "/api/v1/auth/token", form={"username": username, "password": password})["access_token"]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        tokens = list(pool.map(login, [p["vets"][0][0] for p in practices]))
    bench = practices[0]
    vet_id, token = bench["vets"][0][1], tokens[0]
    auth = {"Authorization": f"Bearer {token}"}
    # The clinic console: a browser session of the bench practice's first vet, by the sign-in form.
    console_cookie = {"Cookie": "helppet_session=" + console_session(base, bench["vets"][0][0], password)}

    # Playback: a few real recordings of the bench practice (initiate → presigned POST upload → complete).
    playback_pairs = [bench["initiate_pairs"].pop() for _ in range(4)]
    playback_visits = []
    for appointment_id, pet_id in playback_pairs:
        r = call(base, "POST", "/api/v1/visit-transcripts/audio/upload/initiate", token=token,
                 body={"pet_id": pet_id, "appointment_id": appointment_id, "filename": "bench.m4a",
                       "content_type": "audio/m4a", "estimated_duration_seconds": 60})
        multipart_post(r["upload_url"], r["upload_fields"], os.urandom(64 * 1024), "audio/m4a")
        call(base, "POST", f"/api/v1/visit-transcripts/audio/upload/complete/{r['visit_id']}", token=token, body={})
        playback_visits.append(r["visit_id"])

    # AutoDetail studio: UTC, open 08:00–20:00 every day, capacity 20, 365-day window, 5-minute step, no lead time.
    admin = call(base, "POST", "/api/admin/login", body={"username": "admin", "password": ADMIN_PASSWORD})["token"]
    hours = {d: {"open": "08:00", "close": "20:00"} for d in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}
    call(base, "PUT", "/api/admin/settings", token=admin,
         body={"timezone": "UTC", "workingHours": hours, "slotStepMinutes": 5, "capacity": 20,
               "bookingWindowDays": 365, "leadTimeMinutes": 0})
    services = []
    for name, price, minutes in [("Car Washing", 1500, 60), ("Interior Detailing", 7500, 180),
                                 ("Machine Polishing", 12000, 240), ("Express Wash", 800, 30),
                                 ("Ceramic Coating", 25000, 480), ("Headlight Restoration", 2500, 45)]:
        services.append(call(base, "POST", "/api/admin/services", token=admin,
                             body={"name": name, "priceRub": price, "durationMinutes": minutes,
                                   "description": f"{name} (benchmark catalogue)"}))
    key = call(base, "POST", "/api/admin/api-keys", token=admin, body={"name": "Bench load", "fullAccess": False})["key"]
    wash = services[0]

    def booking(start, service, n):
        return {"startIso": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "clientName": f"Bench Client {n}",
                "phone": "+79161234567", "carMake": "Toyota Camry", "carPlate": "A123BC 777", "serviceId": service["id"]}

    # Tomorrow (the availability day) gets a realistic booked day: 60 bookings of mixed services.
    tomorrow = utc_today() + datetime.timedelta(days=1)
    opening = datetime.datetime.combine(tomorrow, datetime.time(8, 0))
    for n in range(60):
        service = services[n % 4]
        start = opening + datetime.timedelta(minutes=5 * ((n * 7) % 96))
        call(base, "POST", "/api/client/appointments", body=booking(start, service, n), headers={"X-API-Key": key},
             expect=(201, 409))

    # Request files.
    def ids(items, limit=500):
        return items[:limit]

    files = {}

    def requests(name, rows):
        files[name] = reqdir / f"{name}.txt"
        write_requests(files[name], rows)

    requests("health", [("GET", "/health", {}, None)])
    vets = [v[0] for p in practices for v in p["vets"]]
    requests("login", [("POST", "/api/v1/auth/token", {"Content-Type": "application/x-www-form-urlencoded"},
                        urllib.parse.urlencode({"username": u, "password": password})) for u in vets])
    requests("dashboard", [("GET", f"/api/v1/dashboard/vet/{vet_id}/today", auth, None)])
    requests("board-page", [("GET", "/clinic/", console_cookie, None)])
    requests("board-poll", [("GET", "/clinic/board", console_cookie, None)])
    # What an open board sends every few seconds: its current ETag; unchanged, the answer is 304 (one small query).
    board_etag = console_etag(base, "/clinic/board", console_cookie)
    requests("board-poll-304", [("GET", "/clinic/board", {**console_cookie, "If-None-Match": board_etag}, None)])
    requests("appointment", [("GET", f"/api/v1/appointments/{a}", auth, None) for a in ids(bench["appointments"])])
    requests("pet", [("GET", f"/api/v1/pets/{p}", auth, None) for p in ids(bench["record_pets"])])
    requests("records", [("GET", f"/api/v1/medical-records/pet/{p}", auth, None) for p in ids(bench["record_pets"])])
    requests("transcripts", [("GET", f"/api/v1/visit-transcripts/pet/{p}", auth, None) for p in ids(bench["visit_pets"])])
    initiate_rows = []
    longest = max(len(p["initiate_pairs"]) for p in practices)
    for i in range(longest):  # round-robin over the practices, each pair with a vet of its own practice
        for p, t in zip(practices, tokens):
            if i < len(p["initiate_pairs"]):
                a, pet = p["initiate_pairs"][i]
                initiate_rows.append(("POST", "/api/v1/visit-transcripts/audio/upload/initiate",
                                      {"Authorization": f"Bearer {t}", "Content-Type": "application/json"},
                                      {"pet_id": pet, "appointment_id": a, "filename": f"appointment_{a[:8]}_pet.m4a",
                                       "content_type": "audio/m4a", "estimated_duration_seconds": 180.5}))
    requests("initiate", initiate_rows)
    # Every connection initiating for ONE (appointment, pet): one visit, only 200 (or 409) answers.
    slot_appointment, slot_pet = bench["initiate_pairs"].pop()
    requests("initiate-one-slot", [("POST", "/api/v1/visit-transcripts/audio/upload/initiate",
                                    {**auth, "Content-Type": "application/json"},
                                    {"pet_id": slot_pet, "appointment_id": slot_appointment,
                                     "filename": "contention.m4a", "content_type": "audio/m4a"})])
    requests("playback", [("GET", f"/api/v1/visit-transcripts/audio/playback/{v}", auth, None) for v in playback_visits])
    requests("services", [("GET", "/api/client/services", {}, None)])
    requests("availability", [("GET", f"/api/client/availability?serviceId={s['id']}&date={tomorrow}", {}, None)
                              for s in services])
    book_rows = []
    json_key = {"X-API-Key": key, "Content-Type": "application/json"}
    for d in range(2, 361):  # distinct slots of one 60-minute service: 08:00 … 19:00 every 5 minutes, days 2–360
        day0 = datetime.datetime.combine(utc_today() + datetime.timedelta(days=d), datetime.time(8, 0))
        for k in range(133):
            book_rows.append(("POST", "/api/client/appointments", json_key,
                              booking(day0 + datetime.timedelta(minutes=5 * k), wash, len(book_rows))))
    requests("booking", book_rows)

    RSSSampler.part_peaks.clear()  # this engine's server only
    endpoints = [
        ("health", "GET /health", False, 10),
        ("login", "POST /api/v1/auth/token", False, 60),
        ("dashboard", "GET dashboard/vet/{id}/today", False, 10),
        ("board-page", "GET /clinic/ (day board page)", False, 10),
        ("board-poll", "GET /clinic/board (its poll)", False, 10),
        ("board-poll-304", "GET /clinic/board, unchanged (304)", False, 10),
        ("appointment", "GET /appointments/{id}", False, 10),
        ("pet", "GET /pets/{id}", False, 10),
        ("records", "GET /medical-records/pet/{id}", False, 10),
        ("transcripts", "GET /visit-transcripts/pet/{id}", False, 10),
        ("initiate", "POST audio/upload/initiate", True, 10),
        ("initiate-one-slot", "POST initiate, one (appt, pet)", False, 10),
        ("playback", "GET audio/playback/{id}", False, 10),
        ("services", "GET /api/client/services", False, 10),
        ("availability", "GET /api/client/availability", False, 10),
        ("booking", "POST /api/client/appointments", True, 10),
    ]
    if args.only:
        endpoints = [e for e in endpoints if e[0] in args.only or e[0] == "health"]
    results = []
    for name, label, distinct, timeout in endpoints:
        r = runner.measure(files[name], distinct=distinct, timeout=timeout)
        r["name"], r["label"] = name, label
        results.append(r)
        print(f"[{engine}] {row_text(r, results[0]['rps'])}", flush=True)
        wait_idle(pid)

    # Login storm: /health latency (8 connections, 1 thread) alone, then under 50 concurrent logins.
    storm = {}
    if not args.only or "storm" in args.only:
        wait_idle(pid)
        storm["alone"] = wrk(base, files["health"], args.duration, 8, threads=1)
        login_out = {}

        def storm_logins():
            login_out["r"] = wrk(base, files["login"], args.duration + 4, 50, threads=1, timeout=60)

        t = threading.Thread(target=storm_logins)
        t.start()
        time.sleep(2)
        sampler = RSSSampler(pid)
        sampler.start()
        storm["during"] = wrk(base, files["health"], args.duration, 8, threads=1)
        storm["peak_rss_kib"] = sampler.stop()
        t.join()
        storm["logins"] = login_out["r"]
        print(f"[{engine}] {storm_text(storm)}", flush=True)

    return {"results": results, "storm": storm, "vmhwm_kib": rss_kib(pid, "VmHWM"),
            "rss_parts": dict(RSSSampler.part_peaks)}


# ------------------------------------------------------------------------------------------------------------ output

HEADER = (f"{'endpoint':<32} {'req/s':>8} {'x/health':>8} {'x/pgbnch':>8} {'p50 ms':>7} {'p99 ms':>8} {'non-2xx':>7} "
          f"{'409':>6} {'sock err':>8} {'RSS MiB':>7}")


def non2xx(r):
    """Answers other than 2xx and 409 (and 304 where a conditional poll expects it)."""
    expected = {409, 304} if r.get("name") == "board-poll-304" else {409}
    return sum(c for s, c in r["statuses"].items() if not 200 <= s < 300 and s not in expected)


def row_text(r, health_rps, pgbench_tps=None):
    errors = r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
    note = f"  (wrapped {r['wrapped']})" if r.get("wrapped") else ""
    of_pgbench = f"{r['rps'] / pgbench_tps:>8.3f}" if pgbench_tps else f"{'-':>8}"
    return (f"{r['label']:<32} {r['rps']:>8.0f} {r['rps'] / health_rps:>8.3f} {of_pgbench} {r['p50_us'] / 1000:>7.2f} "
            f"{r['p99_us'] / 1000:>8.2f} {non2xx(r):>7} {r['statuses'].get(409, 0):>6} {errors:>8} "
            f"{r['peak_rss_kib'] / 1024:>7.1f}{note}")


def storm_text(storm):
    logins = storm["logins"]
    return (f"login storm: /health (8 connections) p99 {storm['alone']['p99_us'] / 1000:.2f} ms alone, "
            f"{storm['during']['p99_us'] / 1000:.2f} ms during 50 concurrent logins "
            f"(p50 {storm['during']['p50_us'] / 1000:.2f} ms; logins {logins['rps']:.1f}/s, "
            f"login p99 {logins['p99_us'] / 1000:.0f} ms, non-2xx {non2xx(logins)}); "
            f"peak RSS {storm['peak_rss_kib'] / 1024:.1f} MiB")


def targets(report):
    by = {r["name"]: r for r in report["results"]}
    lines = []

    def check(ok, text):
        lines.append(f"{'PASS' if ok else 'MISS'}  {text}")

    slow = [f"{r['name']} {r['p99_us'] / 1000:.1f}" for r in report["results"] if r["name"] != "login" and r["p99_us"] >= 25000]
    worst = max((r for r in report["results"] if r["name"] != "login"), key=lambda r: r["p99_us"])
    check(not slow, f"every non-login endpoint p99 < 25 ms (worst: {worst['name']} {worst['p99_us'] / 1000:.1f} ms)"
          + (f"; over: {', '.join(slow)}" if slow else ""))
    if "board-page" in by:
        p99 = by["board-page"]["p99_us"] / 1000
        check(p99 < 25, f"clinic day board page p99 < 25 ms ({p99:.1f} ms)")
    if "appointment" in by:
        check(by["appointment"]["rps"] >= 3000, f"appointment GET >= 3000 req/s ({by['appointment']['rps']:.0f})")
    # The read path's targets (docs/read-path.md).
    for name, target, text in [("dashboard", 1500, "dashboard/today"), ("pet", 2000, "pet GET"),
                               ("records", 2000, "medical records by pet"), ("transcripts", 2000, "transcripts by pet"),
                               ("playback", 2000, "playback"), ("initiate", 1000, "initiate (new slot each)"),
                               ("availability", 1500, "AutoDetail availability"), ("booking", 800, "AutoDetail booking")]:
        if name in by:
            check(by[name]["rps"] >= target, f"{text} >= {target} req/s ({by[name]['rps']:.0f})")
    if "initiate-one-slot" in by:
        r = by["initiate-one-slot"]
        check(non2xx(r) == 0, f"initiate on one (appointment, pet): 0 answers other than 2xx/409 ({non2xx(r)})")
    peak = max([r["peak_rss_kib"] for r in report["results"]] + [report["storm"].get("peak_rss_kib", 0)])
    check(peak < 45 * 1024, f"server RSS <= 45 MiB under load (peak VmRSS {peak / 1024:.1f} MiB, "
          f"VmHWM {report['vmhwm_kib'] / 1024:.1f} MiB)")
    if report["storm"]:
        p99 = report["storm"]["during"]["p99_us"] / 1000
        check(p99 < 20, f"/health p99 < 20 ms during a storm of 50 concurrent logins ({p99:.2f} ms)")
    return lines


def render(report):
    lines = [f"== {report['engine']} ==", HEADER]
    health = report["results"][0]["rps"]
    pgbench = report.get("pgbench_tps")
    lines += [row_text(r, health, pgbench) for r in report["results"]]
    if pgbench:
        lines.append(f"ceiling: pgbench -S (select-only, {THREADS} threads) at 32 clients against the same PostgreSQL: "
                     f"{pgbench:.0f} tps; /health is {health / pgbench:.3f} of it")
    peak = max([r["peak_rss_kib"] for r in report["results"]] + [report["storm"].get("peak_rss_kib", 0)])
    lines.append(f"peak RSS of the server over the run: {peak / 1024:.1f} MiB (VmHWM {report['vmhwm_kib'] / 1024:.1f} MiB)")
    parts = report.get("rss_parts", {})
    if parts:
        lines.append(f"  of which at their peaks: anonymous (heap, stacks) {parts.get('RssAnon', 0) / 1024:.1f} MiB, "
                     f"file-backed (binary and libraries, shared) {parts.get('RssFile', 0) / 1024:.1f} MiB")
    if report["storm"]:
        lines.append(storm_text(report["storm"]))
    lines.append(f"targets ({report['engine']}; stated for PostgreSQL):")
    lines += ["  " + t for t in targets(report)]
    return "\n".join(lines)


def machine_header(args, loads):
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
        except OSError:
            return "?"
    mem = sh("free -m | awk '/Mem:/{print $2}'")
    swift = sh("swift --version 2>&1 | head -n 1")
    pg = sh(f"psql '{args.postgres_url}' -Atc 'SHOW server_version'") if args.postgres_url else "not run"
    dataset = DATASETS["quick" if args.quick else "full"]
    return "\n".join([
        f"bench/run (HTTP) on {datetime.date.today()}, release build (-c release -Xswiftc -g), "
        f"wrk {THREADS} threads / {args.connections} connections, {args.duration} s per endpoint after a "
        f"{args.warmup} s warm-up{' (--quick)' if args.quick else ''}",
        f"server binary: {local_server.SERVER}",
        f"machine: {sh('uname -a')}",
        f"cores: {sh('nproc')}, memory: {mem} MiB; {swift}; PostgreSQL {pg}",
        f"load average before / after: {loads[0]} / {loads[1]}" if len(loads) > 1 else f"load average: {loads[0]}",
        "dataset: " + ", ".join(f"{k} {v}" for k, v in dataset.items()) + " (server bench-seed; 1-3 pets per "
        "appointment, record lineages of 1-3 versions, processed recording visits); AutoDetail: capacity 20, "
        "365-day window, 5-minute step, 6 services, 60 bookings on the availability day",
        "server: LOG_LEVEL=warning, TRANSCRIPTION_ENGINE=off, DATABASE_POOL_SIZE default; wrk and the server share "
        "the machine's cores",
        "columns: req/s, throughput relative to /health and to pgbench -S (32 clients, same PostgreSQL) of the same "
        "run, latency p50/p99, non-2xx answers other than 409, 409 answers, socket errors/timeouts, peak VmRSS of "
        "the server during the run",
    ])


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--engines", default="sqlite,postgres")
    ap.add_argument("--postgres-url", default=None, help="admin URL of a PostgreSQL server (a database is created)")
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--quick", action="store_true", help="small dataset, 2 s runs: a smoke check")
    ap.add_argument("--only", default=None, help="comma-separated endpoint names (plus health, storm)")
    ap.add_argument("--results", default=None, help="results file (default bench/results/<date>-http.txt)")
    ap.add_argument("--keep", action="store_true", help="keep the data directories")
    args = ap.parse_args()
    if args.quick:
        args.duration, args.warmup = min(args.duration, 2), min(args.warmup, 1)
    args.only = set(args.only.split(",")) if args.only else None
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    if "postgres" in engines and not args.postgres_url:
        raise SystemExit("--postgres-url is required for the postgres engine")
    if not local_server.SERVER.exists():
        raise SystemExit(f"{local_server.SERVER} is missing (bench/run builds it)")

    loads = [load_average()]
    workdir = Path(tempfile.mkdtemp(prefix="bench-http-"))
    reports = []
    try:
        for engine in engines:
            reports.append(run_engine(engine, args, workdir))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    loads.append(load_average())

    text = machine_header(args, loads) + "\n\n" + "\n\n".join(render(r) for r in reports) + "\n"
    print()
    print(text)
    results = Path(args.results) if args.results else ROOT / "bench" / "results" / f"{datetime.date.today()}-http.txt"
    if args.results != "-":
        results.write_text(text)
        print(f"written to {results}")


if __name__ == "__main__":
    main()
