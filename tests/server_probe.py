"""Small client of a running bin/msserver for tests/launchers.sh.

server_probe.py health PORT                 waits (up to 240 s) until /q/health is UP
server_probe.py start PORT TOKEN SCRIPT [TEXT]
                                            waits for health, submits SCRIPT (with \\n escapes),
                                            waits until it runs (and rank 0 printed TEXT), prints
                                            "RUNNING <id>"
"""
import json
import sys
import time
import urllib.error
import urllib.request


def health(port):
    deadline = time.time() + 240
    while time.time() < deadline:
        try:
            if json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/q/health"))["status"] == "UP":
                return
        except (urllib.error.URLError, ConnectionError, ValueError):
            pass
        time.sleep(0.5)
    sys.exit("the server never became healthy")


def start(port, token, script, text=None):
    health(port)
    base = f"http://127.0.0.1:{port}"
    auth = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    body = json.dumps({"script": script.encode().decode("unicode_escape")}).encode()
    job = json.load(urllib.request.urlopen(urllib.request.Request(base + "/v1/jobs", body, auth)))
    deadline = time.time() + 120
    while time.time() < deadline:
        r = json.load(urllib.request.urlopen(urllib.request.Request(base + "/v1/jobs/" + job["id"], headers=auth)))
        log = urllib.request.urlopen(urllib.request.Request(f"{base}/v1/jobs/{job['id']}/logs/0",
                                                            headers=auth)).read()
        if r["state"] == "RUNNING" and (text is None or text.encode() in log):
            time.sleep(2)  # the rank's interpreter is running the script now
            print("RUNNING", job["id"])
            return
        if r["state"] not in ("QUEUED", "RUNNING"):
            sys.exit(f"the job ended: {r}")
        time.sleep(0.3)
    sys.exit("the job never ran")


if __name__ == "__main__":
    if sys.argv[1] == "health":
        health(sys.argv[2])
    else:
        start(*sys.argv[2:6])
