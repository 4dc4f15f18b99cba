"""Bounded load test of the job server: N small jobs (one rank each: init, print) submitted by C
concurrent clients over loopback to a server started with bin/msserver. Reports whether every job
finished SUCCEEDED (no lost job), the submission latency percentiles (POST /v1/jobs round trip), the
completion latency percentiles (submission to SUCCEEDED seen by polling every 50 ms) and the
throughput (jobs per second over the whole run).
Usage: load.py BASE_URL TOKEN [JOBS=50] [CLIENTS=8]"""
import json
import statistics
import sys
import threading
import time
import urllib.request

base, token = sys.argv[1], sys.argv[2]
jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
clients = int(sys.argv[4]) if len(sys.argv) > 4 else 8
headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
script = "from mindspore.communication import init, get_rank\ninit()\nprint('job', get_rank())\n"
submit_ms, done_ms, states, lock = [], [], [], threading.Lock()


def client(count):
    for _ in range(count):
        t0 = time.perf_counter()
        req = urllib.request.Request(base + "/v1/jobs", json.dumps({"script": script, "workers": 1}).encode(),
                                     headers)
        job = json.load(urllib.request.urlopen(req))
        t1 = time.perf_counter()
        while True:
            r = json.load(urllib.request.urlopen(urllib.request.Request(base + "/v1/jobs/" + job["id"],
                                                                        headers=headers)))
            if r["state"] in ("SUCCEEDED", "FAILED", "CANCELLED"):
                break
            time.sleep(0.05)
        t2 = time.perf_counter()
        with lock:
            submit_ms.append((t1 - t0) * 1000)
            done_ms.append((t2 - t0) * 1000)
            states.append(r["state"])


start = time.perf_counter()
threads = [threading.Thread(target=client, args=(jobs // clients + (1 if i < jobs % clients else 0),))
           for i in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
wall = time.perf_counter() - start


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


print(f"| jobs | clients | succeeded | submit p50/p95/p99 ms | completion p50/p95/p99 s | throughput jobs/s |")
print(f"|---:|---:|---:|---|---|---:|")
print(f"| {len(states)} | {clients} | {states.count('SUCCEEDED')} | "
      f"{pct(submit_ms, 50):.0f} / {pct(submit_ms, 95):.0f} / {pct(submit_ms, 99):.0f} | "
      f"{pct(done_ms, 50) / 1000:.2f} / {pct(done_ms, 95) / 1000:.2f} / {pct(done_ms, 99) / 1000:.2f} | "
      f"{len(states) / wall:.2f} |")
sys.exit(0 if states.count("SUCCEEDED") == jobs else 1)
