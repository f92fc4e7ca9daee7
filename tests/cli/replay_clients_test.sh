#!/usr/bin/env bash
# Replay across fio servers (docs/requests.md, "Replay fidelity", --clients):
# three `fio --server` on free ports of 127.0.0.1 stand for three nodes. The
# shipped recipe (configs/replay.yaml, 2 replicas, one replay of the
# original) replayed through them by one fio client gives what one local fio
# gives: every process's requests and bytes (from fio's latency logs, which
# the client brings back named with the server's host), the same figures and
# byte counts in /replay, plus the servers. A replica of 4100 processes,
# more than one fio runs, replays for real over two servers, every process's
# log back. A bad clients file, a server that does not answer and options
# fio's client cannot send are refused with exit 2 before any work, naming
# the file's line or the server. Skipped without fio.
set -u
source "$(dirname "$0")/lib.sh"
if ! command -v fio >/dev/null; then
  echo "SKIP: fio is not installed (Debian: apt-get install fio; the README's install command has it)"
  exit 77
fi
servers=()
stop_servers() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$tmp"
}
trap stop_servers EXIT
free_port() {  # a port nothing listens on now (the kernel's pick)
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
listening() {  # port: a server accepts connections there
  /usr/bin/python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" 2>/dev/null
}
ports=()
for k in 1 2 3; do
  port=$(free_port)
  fio --server=ip:127.0.0.1,"$port" >"$tmp/server$k.log" 2>&1 &
  servers+=($!)
  ports+=("$port")
done
for port in "${ports[@]}"; do
  for _ in $(seq 50); do listening "$port" && break; sleep 0.2; done
  listening "$port" || { echo "FAIL: fio --server did not listen on 127.0.0.1,$port: $(cat "$tmp"/server*.log)"; exit 1; }
done
printf '# three fio servers on this host\n127.0.0.1,%s\n\n127.0.0.1,%s   # the second\n127.0.0.1,%s\n' \
  "${ports[@]}" >"$tmp/clients"
printf '127.0.0.1,%s\n127.0.0.1,%s\n' "${ports[0]}" "${ports[1]}" >"$tmp/two"
mkdir -p "$tmp/target" "$tmp/logs"
# The recipe, smaller: 2 replicas of the requests and of the study.
sed -e 's/^    replicas: 8/    replicas: 2/' -e 's/^replicas: 8/replicas: 2/' \
  -e "s|\.\./tests/data|$(cd "$data" && pwd)|g" "$source_dir/configs/replay.yaml" >"$tmp/replay.yaml"
# fio through a script that keeps each replay's latency logs (the replay's folder goes with it).
printf '#!/bin/sh\n"%s" "$@"; rc=$?\ncase "$*" in *replay*.fio*) n=$(ls "%s" | wc -l); cp -r lat "%s/$n";; esac\nexit $rc\n' \
  "$(command -v fio)" "$tmp/logs" "$tmp/logs" >"$tmp/keeping-fio"
chmod +x "$tmp/keeping-fio"

# The plan names the servers and where each process replays; the probe ran a read on each.
expect_rc 0 "replay --clients --dry-run" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/dry.h5" \
  --clients "$tmp/clients" --dry-run
expect_in "$tmp/stdout" "^fio servers (--clients $tmp/clients): 127.0.0.1,${ports[0]} 127.0.0.1,${ports[1]} 127.0.0.1,${ports[2]}, each answered" "the plan's servers"
expect_in "$tmp/stdout" "on the fio servers: the original's processes 0-10 on 127.0.0.1,${ports[0]}, 11-21 on 127.0.0.1,${ports[1]}, 22-31 on 127.0.0.1,${ports[2]}; a replica's 0-10 on" "the plan's blocks"
[ ! -e "$tmp/dry.h5" ] && [ -z "$(ls -A "$tmp/target")" ] || fail "--dry-run --clients left files: $(ls -A "$tmp" "$tmp/target")"

# One local replay and the same over the three servers.
for mode in local clients; do
  rm -rf "$tmp/logs" && mkdir "$tmp/logs"
  extra=()
  [ "$mode" = clients ] && extra=(--clients "$tmp/clients")
  expect_rc 0 "replay ($mode)" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/$mode.h5" \
    --original-replays 1 --fio "$tmp/keeping-fio" "${extra[@]}"
  cp "$tmp/stdout" "$tmp/$mode.txt"
  mv "$tmp/logs" "$tmp/$mode-logs"
done
[ -z "$(ls -A "$tmp/target")" ] || fail "the replays left files in the target: $(ls -A "$tmp/target")"
expect_in "$tmp/clients.txt" "^  fio servers 127.0.0.1,${ports[0]} 127.0.0.1,${ports[1]} 127.0.0.1,${ports[2]}: the original's processes 0-10" "the table names the servers"
grep -q "fio servers" "$tmp/local.txt" && fail "a local replay's table names fio servers"
# --json gives the servers too (a local replay's has none).
expect_rc 0 "replay --clients --json" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/json.h5" \
  --original-replays 1 --clients "$tmp/clients" --json
/usr/bin/python3 - "$tmp/stdout" "${ports[*]}" >"$tmp/check" 2>&1 <<'PY' || fail "--json lacks the servers: $(cat "$tmp/check")"
import json, sys
replay = json.load(open(sys.argv[1]))["replays"][0]
assert replay["fio_servers"] == [f"127.0.0.1,{p}" for p in sys.argv[2].split()], replay.get("fio_servers")
assert replay["fio_server_processes"].startswith("the original's processes 0-10"), replay["fio_server_processes"]
PY
/usr/bin/python3 - "$tmp" "${ports[*]}" >"$tmp/check" 2>&1 <<'PY' || fail "the replay over servers differs from the local one: $(cat "$tmp/check")"
import os, re, sys
import h5py

tmp, ports = sys.argv[1], sys.argv[2].split()

def per_process(folder, suffix):
    """{rank: (requests, bytes)} of one replay's latency logs."""
    out = {}
    for name in os.listdir(folder):
        if re.match(r"rank_\d+_[cs]lat\.", name):
            continue  # fio's completion and submission latency logs beside them
        m = re.fullmatch(r"rank_(\d+)_lat\.\d+\.log" + re.escape(suffix), name)
        assert m, f"{folder}/{name} is not a latency log named as expected"
        sizes = [int(line.split(",")[3]) for line in open(os.path.join(folder, name)) if line.strip()]
        out[int(m.group(1))] = (len(sizes), sum(sizes))
    return out

replays = sorted(os.listdir(f"{tmp}/local-logs"), key=int)
assert replays == sorted(os.listdir(f"{tmp}/clients-logs"), key=int) and len(replays) == 3, replays
for r in replays:  # the original, replica 0, replica 1: the same replays in the same order
    local = per_process(f"{tmp}/local-logs/{r}", "")
    clients = per_process(f"{tmp}/clients-logs/{r}", ".127.0.0.1")  # the client adds the server's host
    assert len(local) == 32 and local == clients, (r, local, clients)

def load(path):
    with h5py.File(path, "r") as f:
        g = f["replay/mpi-io-test"]
        figures = {n.decode(): row for n, row in zip(g["figures"]["figure"], g["figures"][()])}
        return dict(g.attrs), figures, sorted(g.keys())

la, lf, lk = load(f"{tmp}/local.h5")
ca, cf, ck = load(f"{tmp}/clients.h5")
assert lk == ck, (lk, ck)  # the same figure set
assert sorted(lf) == sorted(cf), (sorted(lf), sorted(cf))
for name in ("reads", "writes", "bytes"):
    for field in ("original", "synthetic_mean", "synthetic_low", "synthetic_high"):
        assert lf[name][field] == cf[name][field], (name, field, lf[name][field], cf[name][field])
servers = " ".join(f"127.0.0.1,{p}" for p in ports)
assert ca["fio_servers"] == servers, ca["fio_servers"]
assert "fio_servers" not in la and "fio_server_processes" not in la
assert set(ca) - set(la) == {"fio_servers", "fio_server_processes"}, set(ca) ^ set(la)
assert str(ca["fio_server_processes"]).startswith(f"the original's processes 0-10 on 127.0.0.1,{ports[0]}, "), ca["fio_server_processes"]
print("32 processes in each of 3 replays alike; figures", len(cf))
PY
cat "$tmp/check"
for object in /ensembles /requests; do
  same_h5 "$tmp/local.h5" "$tmp/clients.h5" "$object" >"$tmp/diff" || fail "$object differs: $(cat "$tmp/diff")"
done

# Options reach the servers in the job files (fio's client sends no command-line job option); one that
# is not a job option is refused before any work.
expect_rc 0 "a job option with --clients" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/x.h5" \
  --clients "$tmp/two" --dry-run --fio-option=--fsync_on_close=1 --synthetic-fio-option=--replay_no_stall=1
expect_rc 2 "not a job option" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/x.h5" \
  --clients "$tmp/two" --dry-run --fio-option=--output-format=terse
expect_in "$tmp/stderr" "fio does not take --output-format=terse there" "a command-line option of fio's own is refused"

# More processes than one fio runs: refused locally, replayed over two servers.
cat >"$tmp/wide.yaml" <<YAML
seed: 3
requests:
  - name: wide
    trace: $(cd "$data" && pwd)/mpi-io-test.dxt.txt.gz
    format: dxt
    counters: $(cd "$data" && pwd)/mpi-io-test.parser.txt.gz
    processes: 4100
    replicas: 1
    timing: slack
    overrides: {SIZE: {scale: 0.0000000596}, OFF: {scale: 0.0000000596}, ST: {scale: 0}}
YAML
expect_rc 2 "4100 processes on one fio" "$gpusynth" replay "$tmp/wide.yaml" --target "$tmp/target" -o "$tmp/wide.h5" --dry-run
expect_in "$tmp/stderr" "a replica has 4100 processes and one fio runs at most 4096 jobs.*--clients" "the local limit"
head -1 "$tmp/two" >"$tmp/one"
expect_rc 2 "4100 processes on one server" "$gpusynth" replay "$tmp/wide.yaml" --target "$tmp/target" -o "$tmp/wide.h5" \
  --clients "$tmp/one" --dry-run
expect_in "$tmp/stderr" "a replica has 4100 processes and each fio server runs at most 4096 jobs: the 1 servers of --clients $tmp/one run at most 4096; list at least 2 servers" "the servers' limit"
rm -rf "$tmp/logs" && mkdir "$tmp/logs"
# In memory where there is a tmpfs: ext4 takes 30 s more here to create the 16,400 iologs and logs.
wide_target=$tmp/target
[ -d /dev/shm ] && [ -w /dev/shm ] && wide_target=$(mktemp -d -p /dev/shm) && trap 'rm -rf "$wide_target"; stop_servers' EXIT
start=$(date +%s)
expect_rc 0 "4100 processes over two servers" "$gpusynth" replay "$tmp/wide.yaml" --target "$wide_target" \
  -o "$tmp/wide.h5" --clients "$tmp/two" --original-replays 1 --fio "$tmp/keeping-fio"
echo "4100 processes replayed over 2 fio servers in $(($(date +%s) - start)) s"
[ -z "$(ls -A "$wide_target")" ] || fail "the replay left files in $wide_target: $(ls -A "$wide_target" | head -3)"
/usr/bin/python3 - "$tmp" >"$tmp/check" 2>&1 <<'PY' || fail "the 4100 processes' replay: $(cat "$tmp/check")"
import os, re, sys
import h5py
tmp = sys.argv[1]
for replay, processes in (("0", 32), ("1", 4100)):
    ranks = sorted(int(re.fullmatch(r"rank_(\d+)_lat\.\d+\.log\.127\.0\.0\.1", n).group(1))
                   for n in os.listdir(f"{tmp}/logs/{replay}") if not re.match(r"rank_\d+_[cs]lat\.", n))
    assert ranks == list(range(processes)), f"replay {replay}: {len(ranks)} logs of {processes} processes"
with h5py.File(f"{tmp}/wide.h5", "r") as f:
    figures = {n.decode(): row for n, row in zip(f["replay/wide/figures"]["figure"], f["replay/wide/figures"][()])}
    assert f["replay/wide"].attrs["synthetic_processes"] == 4100
print("every one of the 4100 processes' logs came back; synthetic reads+writes:",
      figures["reads"]["synthetic_mean"] + figures["writes"]["synthetic_mean"])
PY
cat "$tmp/check"

# Bad clients files and servers: exit 2 before any work, nothing written.
printf '127.0.0.1,%s\n127.0.0.1,99999\n' "${ports[0]}" >"$tmp/bad-port"
: >"$tmp/empty"
printf '127.0.0.1,%s\n127.0.0.1,%s\n' "${ports[0]}" "$(free_port)" >"$tmp/unreachable"
expect_rc 2 "a bad port" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/x.h5" --clients "$tmp/bad-port"
expect_in "$tmp/stderr" "--clients $tmp/bad-port:2: '127.0.0.1,99999': the port '99999' is not a number from 1 to 65535" "the bad port's line"
expect_rc 2 "an empty clients file" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/x.h5" --clients "$tmp/empty"
expect_in "$tmp/stderr" "--clients $tmp/empty: lists no fio server" "the empty file"
expect_rc 2 "no clients file" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/x.h5" --clients "$tmp/none"
expect_in "$tmp/stderr" "--clients $tmp/none: cannot open" "the missing file"
expect_rc 2 "a server that does not answer" "$gpusynth" replay "$tmp/replay.yaml" --target "$tmp/target" -o "$tmp/x.h5" \
  --clients "$tmp/unreachable"
expect_in "$tmp/stderr" "--clients $tmp/unreachable:2: the fio server 127.0.0.1,[0-9]* did not run a 1-byte read of --target's" "the silent server"
expect_in "$tmp/stderr" "failed to connect" "fio's own words"
[ ! -e "$tmp/x.h5" ] || fail "a refused replay wrote its output"
[ -z "$(ls -A "$tmp/target")" ] || fail "a refused replay left files in the target: $(ls -A "$tmp/target")"
finish "cli.replay_clients"
