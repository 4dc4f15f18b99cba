"""Reliability of the job server against hostile scripts (issue 19), measured on a running server.

Prints a table: how long a DELETE and a wall-time limit take to stop a job spinning in a tight loop
(thread and process isolation), what a full queue answers, and how fast the API and health answer
while 250 log followers are held open.
Usage: reliability.py BASE_URL TOKEN MAX_QUEUED
"""
import json
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request

base, token, max_queued = sys.argv[1], sys.argv[2], int(sys.argv[3])
auth = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
SPIN = ("import threading\ndef spin():\n    while True:\n        pass\n"
        "threading.Thread(target=spin).start()\nprint('spinning', flush=True)\nspin()\n")


def call(method, path, body=None, headers=None):
    req = urllib.request.Request(base + path, json.dumps(body).encode() if body is not None else None,
                                 headers or auth, method=method)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def submit(body):
    return json.loads(call("POST", "/v1/jobs", body)[1])["id"]


def state(jid):
    return json.loads(call("GET", "/v1/jobs/" + jid)[1])


def wait_done(jid):
    while True:
        r = state(jid)
        if r["state"] in ("SUCCEEDED", "FAILED", "CANCELLED"):
            return r
        time.sleep(0.05)


def wait_log(jid, text):
    while text.encode() not in call("GET", f"/v1/jobs/{jid}/logs/0")[1]:
        time.sleep(0.1)


def progress(*what):
    print("..", *what, file=sys.stderr, flush=True)


def stop_by_delete(extra):
    jid = submit({"script": SPIN, **extra})
    progress("submitted", jid, extra)
    wait_log(jid, "spinning")
    progress("spinning", jid)
    t0 = time.perf_counter()
    call("DELETE", "/v1/jobs/" + jid)
    r = wait_done(jid)
    return time.perf_counter() - t0, r["state"]


def stop_by_timeout(extra):
    jid = submit({"script": SPIN, "timeoutSeconds": 10, **extra})
    r = wait_done(jid)
    assert b"spinning" in call("GET", f"/v1/jobs/{jid}/logs/0")[1], "the job never ran"
    return r


rows = []
for label, extra in (("thread", {}), ("process", {"memoryMb": 512})):
    times = []
    for _ in range(3):
        t, st = stop_by_delete(extra)
        assert st == "CANCELLED", st
        times.append(t)
    rows.append((f"DELETE of a job spinning on 2 Python threads ({label} isolation), s",
                 f"median {statistics.median(times):.2f}, max {max(times):.2f} (n=3)"))
    r = stop_by_timeout(extra)
    from datetime import datetime
    started = datetime.fromisoformat(r["started"].replace("Z", "+00:00"))
    finished = datetime.fromisoformat(r["finished"].replace("Z", "+00:00"))
    rows.append((f"wall-time limit 10 s on a spinning job ({label} isolation): started→FAILED, s",
                 f"{(finished - started).total_seconds():.2f} ({r['reason']})"))

# A full queue: one job runs, MAX_QUEUED wait, the next is refused.
blocker = submit({"script": "import time\nprint('busy', flush=True)\ntime.sleep(600)\n"})
wait_log(blocker, "busy")
ids, refused = [blocker], None
while refused is None and len(ids) < max_queued + 10:
    code, body, headers = call("POST", "/v1/jobs", {"script": "import time\ntime.sleep(600)\n"})
    if code == 201:
        ids.append(json.loads(body)["id"])
    else:
        refused = (code, headers.get("Retry-After"), json.loads(body)["error"])
waiting = sum(state(j)["state"] == "QUEUED" for j in ids)
rows.append(("submission past a full queue", f"HTTP {refused[0]}, Retry-After {refused[1]} s with "
             f"{waiting} jobs waiting ({refused[2]})"))

# 250 followers held open on the running job; then the API and health, 20 times each.
followers = []


def follow():
    try:
        urllib.request.urlopen(urllib.request.Request(f"{base}/v1/jobs/{blocker}/logs/0?follow=true",
                                                      headers=auth), timeout=600).read()
    except Exception:  # noqa: BLE001 - the job is cancelled at the end
        pass


for _ in range(250):
    t = threading.Thread(target=follow, daemon=True)
    t.start()
    followers.append(t)
time.sleep(3)
api, health = [], []
for _ in range(20):
    t0 = time.perf_counter()
    assert call("GET", "/v1/jobs")[0] == 200
    api.append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    code, body, _ = call("GET", "/q/health", headers={})
    assert code == 200 and json.loads(body)["status"] == "UP", body
    health.append((time.perf_counter() - t0) * 1000)
rows.append(("GET /v1/jobs with 250 followers open, ms", f"median {statistics.median(api):.0f}, max {max(api):.0f} (n=20)"))
rows.append(("GET /q/health (asks the API) with 250 followers open, ms",
             f"median {statistics.median(health):.0f}, max {max(health):.0f} (n=20)"))
for jid in ids:
    call("DELETE", "/v1/jobs/" + jid)
for t in followers:
    t.join(60)
rows.append(("followers ended when the job was cancelled", f"{sum(not t.is_alive() for t in followers)} of 250"))

print("| what | measured |")
print("|---|---|")
for what, value in rows:
    print(f"| {what} | {value} |")
