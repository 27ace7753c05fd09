"""`scripts/cluster drill`: the five fault scenarios (docs/scaling.md) under a steady mixed load, then the table.

Load (through nginx, like real clients): recording clients doing the seed 002 per-pet flow (new pet → initiate →
presigned POST straight to S3 → complete; every 6th complete is left out on purpose, for the reconciler), the same
flow through the real HelpPetKit (`helppet record`, with the kit's own retries), a
dashboard reader, and an AutoDetail client booking slots with an Idempotency-Key. Every client retries
connection errors and 502/503/504 with backoff (Retry-After honoured), at most RETRY_BUDGET retries per call,
like the kits do.

Scenarios, in this order (each while the load runs):
2. kill -9 the worker that holds a running transcription job; the other worker takes it after the job's lease.
1. kill -9 one API node with requests in flight; clients' retries go to the other node; the node is started again.
4. a parallel login-guessing burst spread over both API nodes, and an AutoDetail validate-key burst over both:
   the limits hold in total, not per node.
5. kill -9 the worker that ran the reconciler last; the other worker takes the reconciler lease.
3. PostgreSQL restarted: requests meanwhile get 503 + Retry-After (never 500, never longer than the timeout), the
   nodes reconnect by themselves, nothing written before is lost.
Then the load stops, the workers settle, and the invariants are checked in PostgreSQL and S3.
"""

from __future__ import annotations

import json
import random
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from topology import HELPPET_BUCKET, Cluster, http_status, wait_until

OWNER = "d2000000-0000-4000-8000-000000000001"
VET1 = "d1000000-0000-4000-8000-000000000002"
RETRY_BUDGET = 6          # retries per call (7 attempts, ~10 s of backoff): what a kit client does
REQUEST_TIMEOUT = 15      # seconds: the "never a hang" bound of every request
RETRYABLE = {502, 503, 504}


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.failures: list[str] = []

    def add(self, key: str, n: int = 1) -> None:
        with self.lock:
            self.counts[key] += n

    def fail(self, message: str) -> None:
        with self.lock:
            self.failures.append(message)


def raw(method: str, url: str, *, headers: dict[str, str] | None = None, body: bytes | None = None,
        timeout: float = REQUEST_TIMEOUT) -> tuple[int | None, dict[str, str], bytes, float]:
    """One HTTP call: (status or None on a connection error, headers, body, seconds)."""
    started = time.monotonic()
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read(), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read(), time.monotonic() - started
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return None, {}, b"", time.monotonic() - started


class Client:
    """A kit-like client: JSON calls with a bearer token or API key and a bounded retry budget."""

    def __init__(self, base: str, stats: Stats, token: str | None = None, key: str | None = None):
        self.base, self.stats, self.token, self.key = base, stats, token, key

    def call(self, method: str, path_or_url: str, payload: object | None = None, *, body: bytes | None = None,
             content_type: str | None = None, extra: dict[str, str] | None = None) -> tuple[int, object]:
        url = path_or_url if path_or_url.startswith("http") else self.base + path_or_url
        headers = dict(extra or {})
        if self.token and url.startswith(self.base):
            headers["Authorization"] = f"Bearer {self.token}"
        if self.key:
            headers["X-API-Key"] = self.key
        if payload is not None:
            body, content_type = json.dumps(payload).encode(), "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        for attempt in range(RETRY_BUDGET + 1):
            status, answer_headers, data, seconds = raw(method, url, headers=headers, body=body)
            self.stats.add("requests")
            if seconds > REQUEST_TIMEOUT - 0.5:
                self.stats.add("errors: over the timeout")
            if status is not None and status not in RETRYABLE:
                if status >= 500:
                    self.stats.add(f"errors: {status}")
                    self.stats.fail(f"{method} {path_or_url[:80]} answered {status}: {data[:200]!r}")
                try:
                    return status, json.loads(data) if data else None
                except ValueError:
                    return status, data
            self.stats.add(f"errors: {status or 'connection'} (retried)" if attempt < RETRY_BUDGET
                           else f"errors: {status or 'connection'} (gave up)")
            if status == 503 and "Retry-After" not in answer_headers:
                self.stats.fail(f"{method} {path_or_url[:80]}: 503 without Retry-After")
            if attempt == RETRY_BUDGET:
                break
            wait = min(2.0, 0.25 * 2 ** attempt)
            if answer_headers.get("Retry-After", "").isdigit():
                wait = max(wait, min(2.0, float(answer_headers["Retry-After"])))
            time.sleep(wait * random.uniform(0.8, 1.2))
        self.stats.fail(f"{method} {path_or_url[:80]}: retry budget exhausted")
        return 0, None


def multipart(fields: dict[str, str], audio: bytes) -> tuple[bytes, str]:
    boundary = "drill" + uuid.uuid4().hex
    out = b""
    for name, value in fields.items():
        out += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
    out += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.m4a"\r\n'
            f"Content-Type: audio/m4a\r\n\r\n").encode()
    return out + audio + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def speech(folder: Path, text: str, name: str) -> bytes:
    wav, m4a = folder / f"{name}.wav", folder / f"{name}.m4a"
    subprocess.run(["espeak-ng", "-v", "en", "-s", "160", "-w", str(wav), text], check=True)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", str(wav), "-c:a", "aac", str(m4a)],
                   check=True)
    return m4a.read_bytes()


class Load:
    """The steady mixed load; `record_one` is also used by scenario 2 for its long recording."""

    def __init__(self, cluster: Cluster, stats: Stats, short_clip: bytes):
        self.cluster, self.stats, self.clip = cluster, stats, short_clip
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.completed: set[str] = set()       # visits whose complete answered 200
        self.uploaded: set[str] = set()        # visits whose object reached S3 (204 from the presigned POST)
        self.bookings: dict[str, str] = {}     # appointment id → client name
        self.threads: list[threading.Thread] = []
        base = cluster.url
        status, body = Client(base, stats).call("POST", "/api/v1/auth/token",
                                                {"username": "vet1", "password": "password123"})
        if status != 200:
            raise RuntimeError(f"vet1 login through nginx: {status} {body}")
        self.vet = Client(base, stats, token=body["access_token"])

    def record_one(self, name: str, audio: bytes, complete: bool = True) -> str | None:
        status, pet = self.vet.call("POST", "/api/v1/pets", {"name": name, "species": "dog", "owner_id": OWNER})
        if status != 201 and status != 200:
            self.stats.fail(f"create pet: {status} {pet}")
            return None
        status, initiated = self.vet.call("POST", "/api/v1/visit-transcripts/audio/upload/initiate",
                                          {"pet_id": pet["id"], "filename": "r.m4a"})
        if status != 200:
            self.stats.fail(f"initiate: {status} {initiated}")
            return None
        visit = initiated["visit_id"]
        body, content_type = multipart(initiated["upload_fields"], audio)
        status, _ = self.vet.call("POST", initiated["upload_url"], body=body, content_type=content_type)
        if status not in (200, 201, 204):
            self.stats.fail(f"upload to S3: {status}")
            return None
        with self.lock:
            self.uploaded.add(visit)
        self.stats.add("recordings uploaded")
        if complete:
            status, done = self.vet.call("POST", f"/api/v1/visit-transcripts/audio/upload/complete/{visit}", {})
            if status != 200:
                self.stats.fail(f"complete {visit}: {status} {done}")
                return visit
            with self.lock:
                self.completed.add(visit)
        return visit

    def recorder(self, n: int) -> None:
        i = 0
        while not self.stop.is_set():
            i += 1
            self.record_one(f"drill-{n}-{i}", self.clip, complete=i % 6 != 0)
            self.stop.wait(3.0)

    def kit_recorder(self) -> None:
        """The same per-pet flow through the real client kit: `helppet record` (HelpPetKit: initiate, presigned
        upload, complete, each with the kit's own retry policy), one appointment and pet per recording. A recording
        the kit gave up on is a failure: its retries are what must carry it over a killed node."""
        helppet = self.cluster.server_bin.parent / "helppet"
        if not helppet.exists():
            self.stats.fail(f"kit recorder: {helppet} not built")
            return
        with tempfile.TemporaryDirectory(prefix="cluster-kit-") as folder:
            env = {"PATH": "/usr/bin:/bin", "HOME": folder, "XDG_CONFIG_HOME": folder, "HELPPET_SERVER": self.cluster.url}
            clip = Path(folder) / "visit.m4a"
            clip.write_bytes(self.clip)
            login = subprocess.run([str(helppet), "login", "--username", "vet1", "--password-stdin"], env=env,
                                   input="password123\n", capture_output=True, text=True, timeout=60)
            if login.returncode != 0:
                self.stats.fail(f"kit login: {login.stderr.strip()}")
                return
            i = 0
            while not self.stop.is_set():
                i += 1
                status, pet = self.vet.call("POST", "/api/v1/pets", {"name": f"kit-{i}", "species": "cat", "owner_id": OWNER})
                start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
                status2, appointment = (0, None) if status not in (200, 201) else self.vet.call(
                    "POST", "/api/v1/appointments", {"pet_owner_id": OWNER, "pet_ids": [pet["id"]],
                                                     "appointment_date": start, "duration_minutes": 15,
                                                     "title": f"Kit drill {i}", "assigned_vet_user_id": VET1})
                if status2 != 201:
                    self.stats.fail(f"kit appointment: {status} {status2}")
                    self.stop.wait(3.0)
                    continue
                done = subprocess.run([str(helppet), "record", "--json", "--appointment", appointment["id"],
                                       "--pet", pet["id"], str(clip)], env=env, capture_output=True, text=True,
                                      timeout=300)
                if done.returncode != 0:
                    self.stats.fail(f"kit record gave up: {done.stderr.strip()[:200]}")
                else:
                    visit = json.loads(done.stdout)["uuid"]  # the completed VisitTranscript
                    with self.lock:
                        self.uploaded.add(visit)
                        self.completed.add(visit)
                    self.stats.add("kit recordings")
                self.stop.wait(2.0)

    def reader(self) -> None:
        while not self.stop.is_set():
            status, _ = self.vet.call("GET", f"/api/v1/dashboard/vet/{VET1}/today")
            if status != 200:
                self.stats.fail(f"dashboard: {status}")
            self.stats.add("dashboard reads")
            self.stop.wait(0.3)

    def booker(self) -> None:
        anonymous = Client(self.cluster.url, self.stats)
        status, install = anonymous.call("POST", "/api/ios/init")
        if status != 200:
            self.stats.fail(f"ios/init: {status} {install}")
            return
        customer = Client(self.cluster.url, self.stats, key=install["apiKey"])
        status, services = customer.call("GET", "/api/client/services")
        service = services[0]["id"]
        day = 2
        while not self.stop.is_set():
            date = time.strftime("%Y-%m-%d", time.gmtime(time.time() + day * 86400))
            status, slots = customer.call("GET", f"/api/client/availability?serviceId={service}&date={date}")
            free = [s for s in (slots or {}).get("slots", []) if s.get("available")] if status == 200 else []
            if not free:
                day += 1
                continue
            name = "Drill " + uuid.uuid4().hex[:10]
            # One Idempotency-Key per booking intention: a retry after a lost answer never books twice.
            status, booked = customer.call("POST", "/api/client/appointments", {
                "startIso": free[0]["startIso"], "clientName": name, "phone": "+7 916 123-45-67",
                "carMake": "Toyota", "carPlate": "a123bc 777", "serviceName": services[0]["name"], "notes": ""},
                extra={"Idempotency-Key": uuid.uuid4().hex})
            if status == 201:
                with self.lock:
                    self.bookings[booked["id"]] = name
                self.stats.add("bookings")
            elif status != 409:
                self.stats.fail(f"booking: {status} {booked}")
            self.stop.wait(1.0)

    def start(self) -> None:
        targets = [lambda: self.recorder(1), lambda: self.recorder(2), self.kit_recorder, self.reader, self.booker]
        self.threads = [threading.Thread(target=t, daemon=True) for t in targets]
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


def pid_of(owner: str) -> int | None:
    """`host:pid:suffix` (ProcessIdentity) → pid."""
    parts = owner.split(":")
    return int(parts[1]) if len(parts) >= 3 and parts[1].isdigit() else None


def scenario_api_kill(cluster: Cluster, load: Load, results: dict, stats: Stats) -> None:
    """Tight-loop clients around the kill, so requests are in flight on the victim when it dies."""
    victim = cluster.api[0]
    before = Counter(stats.counts)
    burst_stop = threading.Event()

    def reader() -> None:
        while not burst_stop.is_set():
            load.vet.call("GET", f"/api/v1/dashboard/vet/{VET1}/today")

    def initiator(n: int) -> None:
        # New pet + initiate: write transactions in flight, without queueing transcriptions the workers would
        # then have to catch up on (the recorders keep uploading and completing meanwhile).
        i = 0
        while not burst_stop.is_set():
            i += 1
            status, pet = load.vet.call("POST", "/api/v1/pets", {"name": f"drill-burst-{n}-{i}", "species": "dog",
                                                                 "owner_id": OWNER})
            if status in (200, 201):
                status, answer = load.vet.call("POST", "/api/v1/visit-transcripts/audio/upload/initiate",
                                               {"pet_id": pet["id"], "filename": "r.m4a"})
                if status != 200:
                    stats.fail(f"burst initiate: {status} {answer}")
            else:
                stats.fail(f"burst create pet: {status} {pet}")
    threads = [threading.Thread(target=reader, daemon=True) for _ in range(3)]
    threads += [threading.Thread(target=initiator, args=(n,), daemon=True) for n in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    victim.kill9()
    print(f"    killed {victim.name} (SIGKILL) with requests in flight", flush=True)
    time.sleep(5)
    burst_stop.set()
    for thread in threads:
        thread.join(timeout=60)
    delta = Counter(stats.counts)
    delta.subtract(before)
    retried = {k[len("errors: "):]: v for k, v in delta.items() if k.startswith("errors: ") and v > 0}
    victim.start()
    victim.wait_ready()
    results["1 API node kill -9"] = (f"{delta['requests']} requests in the window; errors seen and retried: "
                                     + (", ".join(f"{k}: {v}" for k, v in sorted(retried.items())) or "none"))


def scenario_worker_kill(cluster: Cluster, load: Load, long_clip: bytes, results: dict, stats: Stats) -> None:
    visit = load.record_one("drill-long", long_clip)
    if visit is None:
        stats.fail("scenario 2: the long recording did not complete")
        return
    owner = None

    def running() -> bool:
        nonlocal owner
        rows = cluster.psql(f"SELECT status, coalesce(lease_owner, '') FROM transcription_jobs WHERE visit_id = '{visit}'")
        if rows and rows[0][0] == "running" and rows[0][1]:
            owner = rows[0][1]
            return True
        return False
    wait_until(running, 60, "the long recording's job to run")
    victim = next((w for w in cluster.workers if w.pid == pid_of(owner)), None)
    if victim is None:
        stats.fail(f"scenario 2: job owner {owner} is none of the workers")
        return
    victim.kill9()
    killed_at = time.monotonic()
    print(f"    killed {victim.name} mid-transcription of visit {visit}", flush=True)

    def done() -> bool:
        rows = cluster.psql(f"SELECT state FROM visits WHERE id = '{visit}'")
        return bool(rows) and rows[0][0] in ("processed", "failed")
    wait_until(done, 120, "the other worker to finish the long recording", interval=0.5)
    took = time.monotonic() - killed_at
    jobs = cluster.psql(f"SELECT status, coalesce(lease_owner, '') FROM transcription_jobs WHERE visit_id = '{visit}'")
    state = cluster.psql(f"SELECT state FROM visits WHERE id = '{visit}'")[0][0]
    if len(jobs) != 1 or state != "processed":
        stats.fail(f"scenario 2: visit {visit} ended {state} with jobs {jobs}")
    victim.start()
    victim.wait_ready()
    results["2 worker kill -9 mid-job"] = f"taken over, done {took:.0f} s after the kill ({state}, {len(jobs)} job)"


def scenario_throttles(cluster: Cluster, results: dict, stats: Stats) -> None:
    nodes = [f"http://127.0.0.1:{n.port}" for n in cluster.api]
    user, attempts = "vet2", 40
    limit = 5  # LOGIN_MAX_FAILURES per (username, IP)

    def guess(i: int) -> int | None:
        body = json.dumps({"username": user, "password": f"wrong-{i}"}).encode()
        return raw("POST", nodes[i % len(nodes)] + "/api/v1/auth/token",
                   headers={"Content-Type": "application/json"}, body=body)[0]
    with ThreadPoolExecutor(max_workers=16) as pool:
        statuses = Counter(pool.map(guess, range(attempts)))
    checked = statuses.get(401, 0)
    held = checked <= limit and statuses.get(429, 0) >= attempts - limit and set(statuses) <= {401, 429}
    if not held:
        stats.fail(f"scenario 4: login burst over both nodes answered {dict(statuses)} (limit {limit} in total)")
    stats.add("login guesses", attempts)

    key_limit, calls = 30, 70  # autodetail.validate_key: 30 per minute per client IP
    def validate(i: int) -> int | None:
        body = json.dumps({"apiKey": "ad_live_" + "x" * 40}).encode()
        return raw("POST", nodes[i % len(nodes)] + "/api/auth/validate-key",
                   headers={"Content-Type": "application/json"}, body=body)[0]
    with ThreadPoolExecutor(max_workers=16) as pool:
        key_statuses = Counter(pool.map(validate, range(calls)))
    answered = sum(n for s, n in key_statuses.items() if s != 429)
    key_held = answered <= key_limit and None not in key_statuses and not any(s and s >= 500 for s in key_statuses)
    if not key_held:
        stats.fail(f"scenario 4: validate-key burst over both nodes answered {dict(key_statuses)} (limit {key_limit})")
    results["4 throttles across nodes"] = (f"login: {checked} checked of {attempts} (limit {limit}); "
                                           f"validate-key: {answered} of {calls} (limit {key_limit})")
    results["throttle bound held"] = "yes" if held and key_held else "NO"


def scenario_reconciler(cluster: Cluster, results: dict, stats: Stats) -> None:
    def holder() -> int | None:
        rows = cluster.psql("SELECT owner FROM task_leases WHERE name = 'reconciler'")
        return pid_of(rows[0][0]) if rows else None
    wait_until(lambda: holder() in {w.pid for w in cluster.workers}, 30, "a worker to hold the reconciler lease")
    victim = next(w for w in cluster.workers if w.pid == holder())
    survivor = next(w for w in cluster.workers if w is not victim)
    victim.kill9()
    killed_at = time.monotonic()
    print(f"    killed {victim.name}, the reconciler's last holder", flush=True)
    # A kill between runs leaves a released lease: the survivor's next tick (1 s) claims it. A kill inside a run
    # leaves the lease to expire: at most 30 s, as it is renewed every 10 s while a run lasts (docs/scaling.md).
    wait_until(lambda: holder() == survivor.pid, 60, "the other worker to take the reconciler lease")
    took = time.monotonic() - killed_at
    # Only ever one holder: the lease row has one owner, claimed under an advisory lock.
    holders = cluster.psql("SELECT count(*) FROM task_leases WHERE name = 'reconciler'")[0][0]
    if holders != "1":
        stats.fail(f"scenario 5: {holders} reconciler lease rows")
    victim.start()
    victim.wait_ready()
    results["5 reconciler single instance"] = f"{survivor.name} took over {took:.1f} s after the kill"


def scenario_postgres_restart(cluster: Cluster, load: Load, results: dict, stats: Stats) -> None:
    before = cluster.psql("SELECT count(*) FROM visits")[0][0], cluster.psql("SELECT count(*) FROM ad_appointments")[0][0]
    probe_statuses: Counter = Counter()
    slowest = 0.0
    stop = threading.Event()

    def probe() -> None:
        nonlocal slowest
        while not stop.is_set():
            status, headers, _, seconds = raw("GET", f"{cluster.url}/api/v1/dashboard/vet/{VET1}/today",
                                               headers={"Authorization": f"Bearer {load.vet.token}"})
            probe_statuses[status] += 1
            slowest = max(slowest, seconds)
            if status == 503 and "Retry-After" not in headers:
                stats.fail("scenario 3: 503 without Retry-After")
            time.sleep(0.1)
    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    time.sleep(1)
    cluster.pg_stop("fast")
    print("    PostgreSQL stopped", flush=True)
    time.sleep(4)
    cluster.pg_start()
    print("    PostgreSQL started", flush=True)
    wait_until(lambda: all(http_status(f"http://127.0.0.1:{n.port}/health/ready") == 200 for n in cluster.api),
               60, "the API nodes to reconnect")
    time.sleep(2)
    stop.set()
    thread.join()
    after = cluster.psql("SELECT count(*) FROM visits")[0][0], cluster.psql("SELECT count(*) FROM ad_appointments")[0][0]
    if int(after[0]) < int(before[0]) or int(after[1]) < int(before[1]):
        stats.fail(f"scenario 3: rows lost across the restart: visits {before[0]}→{after[0]}, bookings {before[1]}→{after[1]}")
    bad = {s: n for s, n in probe_statuses.items() if s not in (200, 503)}
    if bad or slowest > REQUEST_TIMEOUT - 0.5 or probe_statuses.get(503, 0) == 0:
        stats.fail(f"scenario 3: probe answers {dict(probe_statuses)}, slowest {slowest:.1f} s")
    results["3 PostgreSQL restart"] = (f"probe: {probe_statuses.get(200, 0)}×200, {probe_statuses.get(503, 0)}×503, "
                                       f"slowest {slowest:.1f} s; nodes reconnected")


def settle_and_check(cluster: Cluster, load: Load, stats: Stats) -> dict[str, str]:
    def settled() -> bool:
        busy = cluster.psql("""SELECT (SELECT count(*) FROM transcription_jobs WHERE status IN ('queued', 'running'))
                                    + (SELECT count(*) FROM visits WHERE source = 'recording' AND state = 'processing')
                                    + (SELECT count(*) FROM visits v WHERE source = 'recording' AND state = 'new'
                                         AND v.id IN (%s))""" % (",".join(f"'{v}'" for v in load.uploaded) or "NULL"))
        return busy[0][0] == "0"
    try:
        wait_until(settled, 150, "the workers and the reconciler to settle", interval=1)
    except RuntimeError as error:
        stats.fail(str(error))

    # What reached S3 (moto lists unsigned).
    keys: list[str] = []
    token = None
    while True:
        url = f"{cluster.s3_endpoint}/{HELPPET_BUCKET}?list-type=2&max-keys=1000" + (f"&continuation-token={urllib.request.quote(token)}" if token else "")
        with urllib.request.urlopen(url, timeout=30) as response:
            tree = ET.fromstring(response.read())
        ns = {"s3": tree.tag.split("}")[0].strip("{")} if tree.tag.startswith("{") else {}
        keys += [e.text for e in tree.iterfind("s3:Contents/s3:Key" if ns else "Contents/Key", ns)]
        token_element = tree.find("s3:NextContinuationToken" if ns else "NextContinuationToken", ns)
        if token_element is None:
            break
        token = token_element.text
    recording_keys = [k for k in keys if k.startswith("visit-recordings/")]
    rows = cluster.psql("SELECT storage_key, count(*), min(state), max(state) FROM visits WHERE storage_key IS NOT NULL GROUP BY storage_key")
    attached = {r[0]: (int(r[1]), r[2], r[3]) for r in rows}
    lost = [k for k in recording_keys if k not in attached or attached[k][1] == "new"]
    duplicated_keys = [k for k, v in attached.items() if v[0] > 1]
    duplicate_visits = cluster.psql("""SELECT pet_id, count(*) FROM visits WHERE source = 'recording'
                                       GROUP BY pet_id, appointment_id HAVING count(*) > 1""")
    completed_missing = cluster.psql("SELECT count(*) FROM visits WHERE id IN (%s) AND state IN ('processing', 'processed', 'failed')"
                                     % (",".join(f"'{v}'" for v in load.completed) or "NULL"))[0][0]
    jobs_done = cluster.psql("SELECT count(*) FROM transcription_jobs WHERE status = 'done'")[0][0]
    jobs_failed = cluster.psql("SELECT count(*) FROM transcription_jobs WHERE status = 'failed'")[0][0]
    stuck = cluster.psql("""SELECT (SELECT count(*) FROM transcription_jobs WHERE status IN ('queued', 'running'))
                                 + (SELECT count(*) FROM visits WHERE source = 'recording' AND state = 'processing')""")[0][0]
    two_jobs = cluster.psql("SELECT visit_id FROM transcription_jobs WHERE status = 'done' GROUP BY visit_id HAVING count(*) > 1")
    names = cluster.psql("SELECT client_name, count(*) FROM ad_appointments WHERE client_name LIKE 'Drill %' GROUP BY client_name")
    booked = {r[0]: int(r[1]) for r in names}
    missing_bookings = [n for n in load.bookings.values() if booked.get(n, 0) == 0]
    double_bookings = [n for n, c in booked.items() if c > 1]

    if lost:
        stats.fail(f"{len(lost)} recordings in S3 not attached to a completed visit: {lost[:3]}")
    if duplicated_keys or duplicate_visits:
        stats.fail(f"duplicates: keys {duplicated_keys[:3]}, visits per pet {duplicate_visits[:3]}")
    if int(completed_missing) != len(load.completed):
        stats.fail(f"{len(load.completed) - int(completed_missing)} completed visits lost")
    if stuck != "0" or two_jobs:
        stats.fail(f"jobs stuck: {stuck}; visits with two done jobs: {two_jobs[:3]}")
    if missing_bookings or double_bookings:
        stats.fail(f"bookings missing {missing_bookings[:3]}, doubled {double_bookings[:3]}")
    return {
        "recordings uploaded / attached / lost": f"{len(recording_keys)} / {len(recording_keys) - len(lost)} / {len(lost)}",
        "visits duplicated": str(len(duplicated_keys) + len(duplicate_visits)),
        "completes acknowledged / found": f"{len(load.completed)} / {completed_missing}",
        "transcription jobs done / failed / stuck": f"{jobs_done} / {jobs_failed} / {stuck}",
        "bookings acknowledged / missing / doubled": f"{len(load.bookings)} / {len(missing_bookings)} / {len(double_bookings)}",
    }


def run_drill(cluster: Cluster) -> int:
    started = time.monotonic()
    stats = Stats()
    results: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="cluster-drill-audio-") as folder:
        short = speech(Path(folder), "Mild fever. Start amoxicillin.", "short")
        long = speech(Path(folder), " ".join(["The dog has a mild fever of 103 degrees, start amoxicillin twice "
                                              "daily and recheck in one week."] * 4), "long")
    load = Load(cluster, stats, short)
    load.start()
    steps = [
        # 2 first: its long recording should not wait behind a queue of short ones.
        ("2: kill -9 a worker mid-transcription", lambda: scenario_worker_kill(cluster, load, long, results, stats)),
        ("1: kill -9 an API node under load", lambda: scenario_api_kill(cluster, load, results, stats)),
        ("4: throttles across both nodes", lambda: scenario_throttles(cluster, results, stats)),
        ("5: reconciler holder killed", lambda: scenario_reconciler(cluster, results, stats)),
        ("3: PostgreSQL restart", lambda: scenario_postgres_restart(cluster, load, results, stats)),
    ]
    try:
        time.sleep(5)
        for title, step in steps:
            print(f"==> scenario {title}", flush=True)
            try:
                step()
            except Exception as error:  # noqa: BLE001 - a scenario that cannot finish is a failed scenario
                stats.fail(f"scenario {title}: {error}")
            time.sleep(2)
    finally:
        load.finish()
    print("==> load stopped; waiting for the workers and the reconciler to settle", flush=True)
    results.update(settle_and_check(cluster, load, stats))

    counts = stats.counts
    errors = {k[len("errors: "):]: v for k, v in sorted(counts.items()) if k.startswith("errors: ")}
    rows = [("requests", str(counts["requests"])),
            ("errors by class", ", ".join(f"{k}: {v}" for k, v in errors.items()) or "none"),
            ("dashboard reads / bookings", f"{counts['dashboard reads']} / {counts['bookings']}"),
            ("recordings by the kit (helppet record)", str(counts["kit recordings"]))]
    rows += list(results.items())
    rows.append(("duration", f"{time.monotonic() - started:.0f} s"))
    width = max(len(k) for k, _ in rows)
    print("\nCluster drill (2 API nodes, 2 workers, nginx, PostgreSQL, S3)")
    print("-" * (width + 60))
    for key, value in rows:
        print(f"{key.ljust(width)}  {value}")
    print("-" * (width + 60))
    if stats.failures:
        print(f"FAILED ({len(stats.failures)}):")
        for failure in stats.failures[:30]:
            print("  - " + failure)
        return 1
    print("PASSED: no loss, no duplicate, no stuck job, every bound held")
    return 0
