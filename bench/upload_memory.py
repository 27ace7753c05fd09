#!/usr/bin/env python3
"""Uploads 100 MiB through the legacy route and through the presigned POST of a running release server, samples
the server's VmRSS from /proc/PID/status every 50 ms, and prints peak RSS growth and throughput next to
`dd ... conv=fsync` on the same disk. Invoked by bench/upload (which builds and starts the server)."""
import json, os, subprocess, sys, threading, time, urllib.request, uuid, http.client, urllib.parse

BASE, PID, DATA_DIR = sys.argv[1], int(sys.argv[2]), sys.argv[3]
SIZE = 100 * 1024 * 1024
CHUNK = 1024 * 1024

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

class Sampler(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True); self.pid = pid; self.peak = 0; self.stop = False
    def run(self):
        while not self.stop:
            self.peak = max(self.peak, rss_kib(self.pid)); time.sleep(0.05)

def call(method, path, body=None, token=None, ctype="application/json"):
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None: req.add_header("Content-Type", ctype)
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r: return json.loads(r.read() or b"{}")

def stream_post(url, fields, file_field, filename, token=None):
    """Streams a multipart body whose file part is SIZE bytes generated on the fly (never in memory here either)."""
    boundary = "bench" + uuid.uuid4().hex
    head = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n".encode() for k, v in fields)
    head += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{file_field}\"; filename=\"{filename}\"\r\nContent-Type: audio/m4a\r\n\r\n".encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=300)
    conn.putrequest("POST", u.path or "/")
    conn.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
    conn.putheader("Content-Length", str(len(head) + SIZE + len(tail)))
    if token: conn.putheader("Authorization", "Bearer " + token)
    conn.endheaders()
    block = os.urandom(CHUNK)
    start = time.monotonic()
    conn.send(head)
    for _ in range(SIZE // CHUNK): conn.send(block)
    conn.send(tail)
    resp = conn.getresponse(); body = resp.read(); elapsed = time.monotonic() - start
    conn.close()
    return resp.status, body, elapsed

def measure(label, run):
    baseline = rss_kib(PID); sampler = Sampler(PID); sampler.start()
    status, body, elapsed = run()
    sampler.stop = True; sampler.join()
    growth = (sampler.peak - baseline) / 1024
    mbps = SIZE / elapsed / 1024 / 1024
    print(f"{label:<16} status {status}  time {elapsed:6.2f}s  throughput {mbps:7.1f} MiB/s  peak RSS growth {growth:6.1f} MiB")
    return mbps, growth

token = call("POST", "/api/v1/auth/token", b"username=vet1&password=password123", ctype="application/x-www-form-urlencoded")["access_token"]
today = call("GET", "/api/v1/dashboard/vet/d1000000-0000-4000-8000-000000000002/today", token=token)
appointment = [a for a in today["appointments_today"] if len(a["pets"]) == 3][0]["id"]

subprocess.run(["sync"])
t0 = time.monotonic()
subprocess.run(["dd", "if=/dev/zero", f"of={DATA_DIR}/x", "bs=1M", "count=100", "conv=fsync"], check=True, capture_output=True)
dd_mbps = 100 / (time.monotonic() - t0)
os.remove(f"{DATA_DIR}/x")
print(f"{'dd conv=fsync':<16} throughput {dd_mbps:7.1f} MiB/s")

legacy = measure("legacy upload", lambda: stream_post(
    BASE + "/api/v1/upload/audio", [("appointment_id", appointment), ("pet_id", "d3000000-0000-4000-8000-000000000001")],
    "audio", "bench.m4a", token))
init = call("POST", "/api/v1/visit-transcripts/audio/upload/initiate",
            {"pet_id": "d3000000-0000-4000-8000-000000000002", "filename": "bench.m4a", "appointment_id": appointment}, token=token)
presigned = measure("presigned POST", lambda: stream_post(init["upload_url"], list(init["upload_fields"].items()), "file", "bench.m4a"))

ok = True
for name, (mbps, growth) in (("legacy", legacy), ("presigned", presigned)):
    verdict_mem = "ok" if growth < 32 else "MISSED"
    verdict_speed = "ok" if mbps >= 0.5 * dd_mbps else "MISSED"
    ok = ok and verdict_mem == "ok" and verdict_speed == "ok"
    print(f"target {name:<10} RSS growth < 32 MiB: {verdict_mem}; throughput >= 50% of dd ({0.5 * dd_mbps:.1f} MiB/s): {verdict_speed}")
sys.exit(0 if ok else 1)
