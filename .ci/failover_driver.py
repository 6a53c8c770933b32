#!/usr/bin/python3
"""Driver of the failover tier (.ci/failover starts the infrastructure and then this).

Sets up a catalog, a subscription and hollow agents on both control-plane replicas, runs a rollout whose waves are
each approved by hand (long soak + promote), injects three faults into PostgreSQL mid-wave (SIGKILL of the primary's
node, a Patroni switchover, a freeze of the primary's node) while a prober keeps writing through the API, then checks
what must hold. Every wait is bounded. Exit 1 on any violated check; the last line carries the figures.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import psycopg2

WORK = os.environ["FAILOVER_WORK"]
PIDS = os.environ["FAILOVER_PIDS"]
HA_PORT = int(os.environ["FAILOVER_HA_PORT"])
ADMIN = os.environ["FAILOVER_ADMIN"]
CPS = ["http://127.0.0.1:%s" % p for p in os.environ["FAILOVER_CP_PORTS"].split()]
REST = {"pg%d" % (i + 1): int(p) for i, p in enumerate(os.environ["FAILOVER_REST_PORTS"].split())}
AGENT_JAR = os.environ["FAILOVER_AGENT_JAR"]
CATALOG = os.environ["FAILOVER_CATALOG"]
AGENTS = int(os.environ.get("FAILOVER_AGENTS", "30"))
SUB = "failover-demo"
FREEZE_SECONDS = 20
PUSH_BOUND_SECONDS = 15   # far below the resync interval the replicas run with (600 s), so only NOTIFY can meet it

T0 = time.time()


def log(msg):
    print("failover: %6.1fs %s" % (time.time() - T0, msg), flush=True)


violations = []


def check(ok, what):
    log(("ok: " if ok else "VIOLATED: ") + what)
    if not ok:
        violations.append(what)


def wait_until(seconds, what, probe, every=0.5):
    """Polls probe() until it returns something truthy; None after `seconds` (the caller decides)."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            got = probe()
            if got:
                return got
        except Exception:  # a probe during a fault may fail; the deadline bounds it
            pass
        time.sleep(every)
    log("gave up waiting %ds for %s" % (seconds, what))
    return None


def api(method, path, body=None, cp=0, timeout=5, content_type="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(CPS[cp] + "/api/v1" + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + ADMIN)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            text = resp.read()
            return resp.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        return e.code, None


def sql(query, args=None):
    conn = psycopg2.connect(host="127.0.0.1", port=HA_PORT, user="postgres", dbname="olmstead", connect_timeout=5,
                            options="-c statement_timeout=10000")
    try:
        with conn.cursor() as cur:
            cur.execute(query, args)
            return cur.fetchall()
    finally:
        conn.close()


def track(pid):
    with open(PIDS, "a") as f:
        f.write("%d\n" % pid)


# --- Patroni ----------------------------------------------------------------------------------------------------------
def members():
    out = subprocess.run(["patronictl", "-c", os.path.join(WORK, "pg1", "patroni.yml"), "list", "-f", "json"],
                         capture_output=True, text=True, timeout=20).stdout
    return json.loads(out)


def primary():
    for name, port in REST.items():
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/primary" % port, timeout=2):
                return name
        except Exception:
            pass
    return None


def node_pids(node):
    """The node's Patroni, its postmaster and the postmaster's children."""
    with open(os.path.join(WORK, node, "patroni.pid")) as f:
        found = [int(f.read().strip())]
    with open(os.path.join(WORK, node, "data", "postmaster.pid")) as f:
        postmaster = int(f.readline().strip())
    found.append(postmaster)
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(postmaster)], capture_output=True, text=True).stdout
    found += [int(p) for p in children.split()]
    return found


def start_node(node):
    with open(os.path.join(WORK, node, "start")) as f:
        cmd = f.read().split()
    logf = open(os.path.join(WORK, node, "patroni.log"), "a")
    proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
    track(proc.pid)
    with open(os.path.join(WORK, node, "patroni.pid"), "w") as f:
        f.write(str(proc.pid))


def all_streaming():
    ms = members()
    return len(ms) == 3 and sum(m["Role"] != "Leader" and m.get("State") in ("streaming", "running")
                                for m in ms) == 2 and any(m["Role"] == "Leader" for m in ms)


# --- the prober: API writes, each acknowledged one must survive with its audit row ---------------------------------
class Prober(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.acked = []       # (name, started, finished)
        self.failed = 0
        self.n = 0

    def run(self):
        while not self.stop.is_set():
            self.n += 1
            name = "probe-%d" % self.n
            started = time.time()
            try:
                status, _ = api("PUT", "/catalogs/" + name, {}, cp=self.n % 2, timeout=5)
            except Exception:
                status = 0
            if status in (200, 201):
                self.acked.append((name, started, time.time()))
            else:
                self.failed += 1
            time.sleep(0.2)

    def first_write_after(self, fault, done):
        """Seconds from the fault to the end of the first acknowledged write started once the fault's action was done
        (the kill, the switchover's return, the freeze), and the longest gap between acknowledged writes from the
        fault until then."""
        after = [a for a in list(self.acked) if a[1] >= done]
        if not after:
            return None, None
        ends = [a[2] for a in list(self.acked) if a[2] <= after[0][2]]
        window = [e for e in ends if e >= fault]
        previous = [e for e in ends if e < fault]
        points = (previous[-1:] or [fault]) + window
        gap = max(b - a for a, b in zip(points, points[1:])) if len(points) > 1 else after[0][2] - fault
        return after[0][2] - fault, gap


# --- the scenario -----------------------------------------------------------------------------------------------------
def setup():
    with open(CATALOG, "rb") as f:
        catalog = f.read()
    assert api("PUT", "/catalogs/demo", {})[0] in (200, 201)
    status, _ = api("POST", "/catalogs/demo/revisions", catalog, content_type="application/yaml", timeout=60)
    assert status in (200, 201), "catalog upload answered %s" % status
    status, _ = api("PUT", "/subscriptions/" + SUB, {
        "catalog": "demo", "package": "olmstead-demo-operator", "channel": "stable", "namespace": "demo",
        "placement": {"selector": "fleet=failover"}, "version": {"pin": "0.2.0"}, "approval": "Automatic"})
    assert status in (200, 201), "subscription answered %s" % status
    status, token = api("POST", "/enrollment-tokens", {"ttlSeconds": 3600, "maxUses": AGENTS,
                                                       "labels": {"fleet": "failover"}})
    assert status == 201, "enrollment token answered %s" % status
    half = AGENTS // 2
    for i, count in enumerate((half, AGENTS - half)):
        logf = open(os.path.join(WORK, "hollow%d.log" % i), "w")
        proc = subprocess.Popen(
            ["java", "-Xmx256m", "-jar", AGENT_JAR, "hollow", "--count", str(count), "--name-prefix", "fo%d-" % i,
             "--control-plane", CPS[i], "--token", token["token"], "--ready-after", "4s",
             "--connects-per-second", "20", "--duration", "30m"],
            stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
        track(proc.pid)
    ok = wait_until(120, "every agent Succeeded at 0.2.0", lambda: sql(
        "select count(*) from subscription_status where subscription = %s and installed_version = '0.2.0' "
        "and phase = 'Succeeded'", (SUB,))[0][0] == AGENTS)
    assert ok, "the hollow fleet did not come up"


def rollout_state(rid):
    status, r = api("GET", "/rollouts/" + rid, cp=0, timeout=5)
    if status != 200:
        status, r = api("GET", "/rollouts/" + rid, cp=1, timeout=5)
    return r if status == 200 else None


def promote(rid, wave_name, promotes):
    """Approves the next wave by hand: promotes only while `wave_name` is still the current wave (a retry after an
    unanswered promote reads first, so it never promotes twice)."""
    deadline = time.time() + 90
    while time.time() < deadline:
        r = rollout_state(rid)
        if r is None:
            time.sleep(0.5)
            continue
        current = [w for w in r["waves"] if w["state"] in ("Open", "Soaking", "WaitingForWindow")]
        if not current or current[0]["name"] != wave_name or r["state"] != "Progressing":
            return True   # it moved on (an earlier promote went through)
        try:
            status, _ = api("POST", "/rollouts/%s/promote" % rid, cp=len(promotes) % 2, timeout=10)
        except Exception:
            status = 0
        promotes.append((wave_name, status))
        if status == 200:
            return True
        time.sleep(1)
    return False


def fault_kill9():
    node = primary()
    pids = node_pids(node)
    log("fault 1: SIGKILL of %s's Patroni, postmaster and its %d children" % (node, len(pids) - 2))
    t = time.time()
    for p in pids:
        os.kill(p, signal.SIGKILL)
    return t, t, node


def fault_switchover():
    node = primary()
    candidates = [m["Member"] for m in members() if m["Role"] == "Sync Standby"] or \
                 [m["Member"] for m in members() if m["Role"] != "Leader"]
    log("fault 2: patronictl switchover %s -> %s" % (node, candidates[0]))
    t = time.time()
    subprocess.run(["patronictl", "-c", os.path.join(WORK, "pg1", "patroni.yml"), "switchover", "--leader", node,
                    "--candidate", candidates[0], "--force"], check=True, timeout=60, capture_output=True)
    return t, time.time(), node


def fault_freeze():
    node = primary()
    pids = node_pids(node)
    log("fault 3: SIGSTOP of %s's Patroni and PostgreSQL for %ds (cut off)" % (node, FREEZE_SECONDS))
    t = time.time()
    for p in pids:
        os.kill(p, signal.SIGSTOP)
    time.sleep(FREEZE_SECONDS)
    for p in pids:
        try:
            os.kill(p, signal.SIGCONT)
        except ProcessLookupError:
            pass
    log("fault 3: %s resumed" % node)
    return t, t, node


def engine_leaders():
    count = 0
    for cp in CPS:
        with urllib.request.urlopen(cp + "/metrics", timeout=5) as resp:
            for line in resp.read().decode().splitlines():
                if line.startswith("olmstead_rollout_engine_leader"):
                    count += int(float(line.split()[-1]))
    return count


def main():
    setup()
    log("fleet of %d hollow agents Succeeded at 0.2.0; starting the rollout" % AGENTS)
    prober = Prober()
    prober.start()
    status, r = api("POST", "/rollouts", {"subscription": SUB, "targetVersion": "0.3.0", "strategy": {
        "canary": {"count": 2}, "batchSize": max(1, -(-(AGENTS - 2) // 4)), "soakSeconds": 3600,
        "progressDeadlineSeconds": 600, "maxFailures": 0, "onFailure": "pause"}})
    assert status == 201, "rollout create answered %s" % status
    rid = r["id"]
    waves = [w["name"] for w in r["waves"]]
    log("rollout %s with waves %s" % (rid, waves))
    faults = {1: ("kill9", fault_kill9), 2: ("switchover", fault_switchover), 3: ("freeze", fault_freeze)}
    figures = {}
    gaps = {}
    promotes = []
    for idx, wave in enumerate(waves):
        opened = wait_until(120, "wave %s open" % wave, lambda: (rollout_state(rid) or {"waves": []})["waves"][idx]
                            ["state"] in ("Open", "Soaking"))
        check(bool(opened), "wave %s opened" % wave)
        if idx in faults:
            name, inject = faults[idx]
            t, done, node = inject()
            first = wait_until(60, "the first API write after %s" % name,
                               lambda: prober.first_write_after(t, done)[0] is not None)
            first_s, gap_s = prober.first_write_after(t, done) if first else (None, None)
            figures[name] = first_s
            gaps[name] = gap_s
            log("%s: first acknowledged API write %.1fs after the fault (longest gap between writes %.1fs)"
                % (name, first_s if first_s is not None else -1, gap_s if gap_s is not None else -1))
            check(first_s is not None and first_s < 30, "API writes again within 30 s after %s" % name)
            if name == "kill9":
                start_node(node)
            check(bool(wait_until(120, "three members streaming", all_streaming, every=1)),
                  "Patroni has a leader and two streaming replicas again after %s" % name)
        soaking = wait_until(180, "wave %s soaking" % wave,
                             lambda: [w for w in (rollout_state(rid) or {"waves": []})["waves"][idx:idx + 1]
                                      if w["state"] == "Soaking"])
        counts = soaking[0] if soaking else {}
        check(bool(soaking) and counts.get("succeeded") == counts.get("clusters"),
              "wave %s soaking with every cluster Succeeded (%s of %s; blocked %s)"
              % (wave, counts.get("succeeded"), counts.get("clusters"), counts.get("blocked")))
        if idx + 1 < len(waves):
            check(promote(rid, wave, promotes), "wave %s approved by hand (promote)" % waves[idx + 1])
    # the last wave soaks for an hour: its promote ends the rollout
    check(promote(rid, waves[-1], promotes), "last wave promoted")
    done = wait_until(120, "the rollout to finish", lambda: (rollout_state(rid) or {}).get("state") == "Succeeded")
    check(bool(done), "the rollout finished Succeeded")
    prober.stop.set()
    prober.join(10)

    # --- checks -------------------------------------------------------------------------------------------------------
    approvals = sql("select cluster, count(*) from rollout_history where rollout_id = %s and kind = 'ClusterApproved' "
                    "group by cluster", (rid,))
    duplicates = sum(n - 1 for _, n in approvals if n > 1)
    unapproved = sql("select wave, cluster from rollout_clusters where rollout_id = %s and cluster not in (select "
                     "cluster from rollout_history where rollout_id = %s and kind = 'ClusterApproved') order by 1, 2",
                     (rid, rid))
    check(not unapproved, "every cluster approved by the rollout (not: %s)" % unapproved)
    check(duplicates == 0, "no cluster approved twice (%d duplicates)" % duplicates)
    opened = sql("select wave, count(*), min(id) from rollout_history where rollout_id = %s and kind = 'WaveOpened' "
                 "group by wave order by min(id)", (rid,))
    check([w for w, _, _ in opened] == waves and all(n == 1 for _, n, _ in opened),
          "waves opened once each, in order (%s)" % [(w, n) for w, n, _ in opened])
    order = sql("select w.idx, w.opened_at, w.completed_at from rollout_waves w where rollout_id = %s order by idx",
                (rid,))
    check(all(order[i][1] >= order[i - 1][2] for i in range(1, len(order))),
          "each wave opened after the one before completed")
    promoted = sql("select wave, count(*) from rollout_history where rollout_id = %s and kind = 'WavePromoted' "
                   "group by wave", (rid,))
    check(all(n == 1 for _, n in promoted), "each wave promoted at most once (%s)" % promoted)
    lost = AGENTS - sql("select count(*) from subscription_status where subscription = %s and "
                        "installed_version = '0.3.0' and phase = 'Succeeded'", (SUB,))[0][0]
    check(lost == 0, "every agent's last report (Succeeded at 0.3.0) stored (%d missing)" % lost)
    names = [a[0] for a in prober.acked]
    stored = {n for (n,) in sql("select name from catalogs where name like 'probe-%%'")}
    audited = {r.split("/", 1)[1] for (r,) in sql("select resource from audit_log where action = 'catalog.put' "
                                                   "and resource like 'catalogs/probe-%%'")}
    lost_writes = len([n for n in names if n not in stored])
    missing_audit = len([n for n in names if n not in audited])
    acked_promotes = len([p for p in promotes if p[1] == 200])
    promote_audits = sql("select count(*) from audit_log where action = 'rollout.promote' and resource = %s",
                         ("rollouts/" + rid,))[0][0]
    missing_audit += max(0, acked_promotes - promote_audits)
    check(lost_writes == 0, "every acknowledged API write stored (%d of %d lost: %s)" % (lost_writes, len(names), [
        "%s acknowledged at %.1fs" % (n, end - T0) for n, _, end in prober.acked if n not in stored]))
    check(missing_audit == 0, "an audit row for every acknowledged mutation (%d missing)" % missing_audit)
    leaders = wait_until(30, "exactly one engine", lambda: engine_leaders() == 1 and all(
        engine_leaders() == 1 for _ in range(3)))
    check(bool(leaders), "exactly one replica runs the rollout engine (now %d)" % engine_leaders())
    # desired state still pushed by NOTIFY: a subscription change reaches every agent well before any resync
    t = sql("select extract(epoch from clock_timestamp())")[0][0]
    status, _ = api("PUT", "/subscriptions/" + SUB, {
        "catalog": "demo", "package": "olmstead-demo-operator", "channel": "stable", "namespace": "demo",
        "placement": {"selector": "fleet=failover"}, "version": {"pin": "0.3.0"}, "approval": "Automatic",
        "config": {"env": [{"name": "FAILOVER", "value": "pushed"}]}}, cp=1)
    check(status == 200, "subscription change accepted (%s)" % status)
    pushed = wait_until(PUSH_BOUND_SECONDS, "every agent to ack the change", lambda: [row for row in sql(
        "select count(*) filter (where acked_generation >= desired_generation and acked_at > to_timestamp(%s)), "
        "extract(epoch from max(acked_at)) - %s from agent_channel_state", (t, t)) if row[0] == AGENTS], every=0.2)
    push_s = float(pushed[0][1]) if pushed else None
    check(push_s is not None, "a subscription change reached all %d agents within %ds (resync is 600 s)%s"
          % (AGENTS, PUSH_BOUND_SECONDS, "" if push_s is None else ": %.1fs" % push_s))
    fmt = lambda v: "-" if v is None else "%.1f" % v
    result = ("failover: %s approvals=%d duplicates=%d lost_reports=%d lost_writes=%d missing_audit=%d "
          "writes_acked=%d first_write_s kill9=%s switchover=%s freeze=%s write_gap_s kill9=%s switchover=%s "
          "freeze=%s push_s=%s engines=%d"
          % ("FAILED(%d)" % len(violations) if violations else "PASSED", sum(n for _, n in approvals), duplicates,
             lost, lost_writes, missing_audit, len(names), fmt(figures.get("kill9")), fmt(figures.get("switchover")),
             fmt(figures.get("freeze")), fmt(gaps.get("kill9")), fmt(gaps.get("switchover")), fmt(gaps.get("freeze")),
             fmt(push_s), engine_leaders()))
    print(result, flush=True)
    with open(os.path.join(WORK, "result"), "w") as f:
        f.write(result + "\n")
    return 1 if violations else 0


def stopped(line):
    print(line, flush=True)
    with open(os.path.join(WORK, "result"), "w") as f:
        f.write(line + "\n")
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        sys.exit(stopped("failover: FAILED: setup: %s" % e))
    except Exception as e:  # the last line still says what happened
        sys.exit(stopped("failover: FAILED: the driver stopped: %r" % e))
