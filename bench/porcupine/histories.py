"""Histories for the side-by-side benchmark (bench/porcupine_comparison), as omnilink history files
(docs/history-format.md); bench/porcupine/main.go reads the same files into Porcupine.

- kv: Porcupine's own test_data/kv logs (Get/Put/Append on string keys; call and return events in
  order, so an event's line number is its time);
- etcd: Porcupine's test_data/jepsen logs (a register read, written and compare-and-swapped by
  Jepsen's clients; nil is 0, Register.tla's initial value, and a value v is v + 1; a timed-out read constrains nothing and is dropped as failed; a
  call that never returned is pending);
- map: generated in the OmniLink paper's Fig. 4 shapes (a map with contains, insert,
  insertIfAbsent, erase and rangeQuery on keys 1..11), accepted or rejected.
"""
import json
import random
import re

KV_INVOKE = re.compile(r'\{:process (\d+), :type :invoke, :f :(get|put|append), :key "(.*)", :value (nil|"(.*)")\}')
KV_OK = re.compile(r'\{:process (\d+), :type :ok, :f :(get|put|append), :key ".*", :value (nil|"(.*)")\}')


def _write(path, header, ops):
    with open(path, "w") as out:
        out.write(json.dumps(dict({"format": "omnilink-history", "version": 1}, **header)) + "\n")
        for op in sorted(ops, key=lambda o: o["start"]):
            out.write(json.dumps(op) + "\n")


def kv_from_porcupine(log_path, path):
    """Porcupine's kv log as a history for tla/specs/KV.tla (MCKV.tla partitions it by key)."""
    open_calls, ops = {}, []
    with open(log_path) as log:
        for time, line in enumerate(log):
            if m := KV_INVOKE.match(line):
                process, f, key, _, value = m.groups()
                open_calls[process] = {"process": int(process), "op": f.capitalize(), "start": time,
                                       "fields": {"key": key} if f == "get" else {"key": key, "value": value}}
            elif m := KV_OK.match(line):
                process, f, _, value = m.groups()
                op = open_calls.pop(process)
                if f == "get":
                    op["fields"]["value"] = value or ""
                op.update(end=time, outcome="ok")
                ops.append(op)
            elif line.strip():
                raise ValueError(f"{log_path}:{time + 1}: not a kv event Porcupine's tests read")
    for op in open_calls.values():
        op["outcome"] = "pending"
        ops.append(op)
    _write(path, {"rename": {"Append": "AppendValue"}, "inputs": {"Put": ["key", "value"], "Append": ["key", "value"],
                                                                    "Get": ["key"]}}, ops)
    return len(ops)


JEPSEN = re.compile(r'^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:(invoke|ok|fail|info)\s+:(read|write|cas)\s+(.*)$')


def etcd_from_jepsen(log_path, path):
    """A Jepsen etcd log as a history for tla/specs/Register.tla (nil is 0, v is v + 1)."""
    open_calls, ops = {}, []
    with open(log_path) as log:
        for time, line in enumerate(log):
            m = JEPSEN.match(line.strip())
            if not m:
                continue
            process, kind, f, value = m.groups()
            if kind == "invoke":
                fields = {}
                if f == "write":
                    fields = {"value": int(value) + 1}
                elif f == "cas":
                    expected, new = value.strip("[]").split()
                    fields = {"expected": int(expected) + 1, "new": int(new) + 1}
                open_calls[process] = {"process": int(process), "op": f.capitalize() if f != "cas" else "CAS",
                                       "start": time, "fields": fields}
                continue
            op = open_calls.pop(process, None)
            if op is None:
                continue
            if f == "read" and value == ":timed-out":
                op.update(end=time, outcome="failed", fields={"value": 0})  # no effect, no result
            elif f == "read":
                op["fields"]["value"] = 0 if value == "nil" else int(value) + 1
                op.update(end=time, outcome="ok")
            elif f == "cas" and kind in ("ok", "fail"):
                op["fields"]["ok"] = kind == "ok"
                op.update(end=time, outcome="ok")
            elif f == "write" and kind == "ok":
                op.update(end=time, outcome="ok")
            else:  # info: the outcome is unknown, and the process calls nothing more
                open_calls[process] = op
                continue
            ops.append(op)
    for op in open_calls.values():
        op["outcome"] = "pending"
        ops.append(op)
    _write(path, {"inputs": {"Write": ["value"], "CAS": ["expected", "new"], "Read": []}}, ops)
    return len(ops)


FIG4_KEYS = range(1, 12)


def fig4_map(path, threads, ops_per_thread, rejected, seed):
    """A history of the paper's Fig. 4 map: every thread calls contains, insert, insertIfAbsent, erase or
    rangeQuery on keys 1..11 back to back; each call takes effect at a point inside its timebox, and a
    timebox overlaps 2 to 4 others. A rejected history has one result flipped late in the run, where no
    order can accept it: a contains that answers the opposite of every state its timebox allows."""
    rng = random.Random(seed)
    # Calls last 2 to 6 ticks; a thread pauses between its calls so that about 3 calls are in flight
    # at once whatever the number of threads: each timebox overlaps 2 to 4 others.
    pause = max(1, threads * 2)
    events = []
    for t in range(threads):
        clock = rng.randint(0, pause)
        for _ in range(ops_per_thread):
            length = rng.randint(2, 6)
            events.append({"process": t, "start": clock, "end": clock + length,
                           "point": clock + rng.random() * length})
            clock += length + 1 + rng.randint(0, 2 * pause)
    store = {}
    for e in sorted(events, key=lambda e: e["point"]):
        call = rng.choice(["Contains", "Contains", "Insert", "InsertIfAbsent", "Erase", "RangeQuery"])
        key = rng.choice(FIG4_KEYS)
        if call == "Contains":
            fields = {"key": key, "found": key in store}
        elif call == "Insert":
            store[key] = True
            fields = {"key": key}
        elif call == "InsertIfAbsent":
            fields = {"key": key, "inserted": key not in store}
            store[key] = True
        elif call == "Erase":
            fields = {"key": key, "erased": key in store}
            store.pop(key, None)
        else:
            low = rng.choice(FIG4_KEYS)
            high = min(11, low + rng.randint(0, 4))
            fields = {"low": low, "high": high, "found": {"$set": sorted(k for k in store if low <= k <= high)}}
        e.update(op=call, fields=fields, outcome="ok")
    if rejected:
        # A contains late in the run whose answer every order fixes, answered the other way: no
        # mutation of its key overlaps it, and the last one before it (if any) overlaps no other
        # mutation of that key, so the key is present exactly when that one inserted.
        overlap = lambda a, b: a["start"] <= b["end"] and b["start"] <= a["end"]
        mutations = [e for e in events if e["op"] in ("Insert", "InsertIfAbsent", "Erase")]
        late = sorted(events, key=lambda e: e["start"])[int(len(events) * 0.9):]
        for e in late:
            if e["op"] != "Contains":
                continue
            key = e["fields"]["key"]
            on_key = [m for m in mutations if m["fields"]["key"] == key]
            if any(overlap(m, e) for m in on_key):
                continue
            before = [m for m in on_key if m["end"] < e["start"]]
            last = max(before, key=lambda m: m["end"]) if before else None
            if last is not None and any(m is not last and overlap(m, last) for m in on_key):
                continue
            e["fields"]["found"] = not (last is not None and last["op"] != "Erase")
            break
        else:
            raise RuntimeError("no contains to flip: try another seed")
    for e in events:
        del e["point"]
    _write(path, {}, events)
    return len(events)
