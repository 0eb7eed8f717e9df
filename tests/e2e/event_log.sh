#!/usr/bin/env bash
# The event log (SCR_LOG_ENABLE=1): each kind of event reaches all three
# sinks -- the text log <prefix>/.scr/log, the JSON-lines log
# <prefix>/.scr/log.jsonl (every line parsed) and syslog (a datagram socket
# this script listens on, SCR_LOG_SYSLOG_SOCKET) -- naming the right dataset.
#  job 1: checkpoints step.5/10/15, flushes step.10, is killed after step.17;
#  job 2: rebuilds step.15 in cache, rank 1 rejects it (a failed call), the
#         older step.10 is fetched from the prefix and restarted, the run ends;
#  job 3: resumes from step.20 and a halt file stops it at once.
source "$(dirname "$0")/lib.sh"
E2E_COPY_TYPE=XOR
e2e_begin event_log

sock="$E2E_DIR/syslog.sock"
syslog="$E2E_DIR/syslog.txt"
python3 - "$sock" "$syslog" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a") as out:
    while True:
        out.write(s.recv(65536).decode(errors="replace") + "\n")
        out.flush()
PY
listener=$!
trap 'rc=$?; kill $listener 2>/dev/null; (exit $rc); e2e_cleanup' EXIT
for _ in $(seq 1 100); do [[ -S "$sock" ]] && break; sleep 0.05; done
[[ -S "$sock" ]] || fail "the syslog listener did not start"

log=(SCR_LOG_ENABLE=1 SCR_LOG_SYSLOG_SOCKET="$sock" SCR_LOG_SYSLOG_PREFIX=scrtest
     SCR_LOG_SYSLOG_FACILITY=LOG_LOCAL3 SCR_LOG_SYSLOG_LEVEL=LOG_NOTICE SCR_FLUSH=2)
args=(-n 20 -c 5)
run_job "${log[@]}" -- "$E2E_NP" "$HEAT" "${args[@]}" --crash-at 17
expect_crashed
run_job "${log[@]}" -- "$E2E_NP" "$HEAT" "${args[@]}" --invalid-restart-rank 1
expect_ok
expect_resumed_from step.10
write_halt EXIT_REASON=event-log-test
run_job "${log[@]}" -- "$E2E_NP" "$HEAT" -n 40 -c 5
expect_ok
sleep 0.2  # let the listener write the last datagrams

text="$PREFIX/.scr/log"
json="$PREFIX/.scr/log.jsonl"
assert_file "$text" "text event log"
assert_file "$json" "JSON-lines event log"
assert_file "$syslog" "syslog capture"

# Every JSON line parses; print "EVENT DATASET" per line for the checks below.
events="$(python3 - "$json" <<'PY'
import json, sys
for n, line in enumerate(open(sys.argv[1]), 1):
    e = json.loads(line)
    for key in ("time", "job", "user", "event"):
        assert key in e, f"line {n} lacks {key}: {line}"
    print(e["event"], e.get("dataset", "-"), e.get("bytes", -1), e.get("seconds", -1))
PY
)" || fail "the JSON-lines log does not parse:
$(cat "$json")"

# has_event EVENT [DATASET]: in all three sinks.
has_event() {
  local event="$1" dataset="${2:-}"
  if [[ -n "$dataset" ]]; then
    grep -c >/dev/null "^$event $dataset " <<<"$events" || fail "log.jsonl has no $event for $dataset:
$events"
    grep -c >/dev/null " event=$event dataset=$dataset\( \|$\)" "$text" || fail "the text log has no $event for $dataset:
$(cat "$text")"
    grep -c >/dev/null "event=$event dataset=$dataset\( \|$\)" "$syslog" || fail "syslog got no $event for $dataset:
$(cat "$syslog")"
  else
    grep -c >/dev/null "^$event " <<<"$events" || fail "log.jsonl has no $event:
$events"
    grep -c >/dev/null " event=$event\( \|$\)" "$text" || fail "the text log has no $event"
    grep -c >/dev/null "event=$event\( \|$\)" "$syslog" || fail "syslog got no $event"
  fi
}

has_event START
has_event END
for step in 5 10 15; do
  has_event DATASET_START "step.$step"
  has_event CHECKPOINT_COMPLETE "step.$step"
done
has_event FLUSH step.10
has_event REBUILD step.15
has_event RESTART_START step.15
has_event RESTART_REJECTED step.15
has_event API_ERROR
has_event FETCH step.10
has_event RESTART_COMPLETE step.10
has_event HALT

# Numbers: a flush reports the bytes it moved and how long it took.
read -r _ _ bytes seconds < <(grep "^FLUSH step.10 " <<<"$events" | head -n1)
((bytes > 0)) || fail "the FLUSH event reports $bytes bytes"
[[ "$seconds" != -1 ]] || fail "the FLUSH event has no duration"
# Two runs started and ended (job 1 was killed: no END of its own).
assert_eq "$(grep -c '^START ' <<<"$events")" 3 "START events"
assert_eq "$(grep -c '^END ' <<<"$events")" 2 "END events"
# Syslog datagrams carry the configured identity and priority:
# LOG_LOCAL3 (19) * 8 + LOG_NOTICE (5) = 157.
grep -c >/dev/null '^<157>.* scrtest\[[0-9]*\]: SCR job=' "$syslog" || fail "syslog lines lack priority 157 and identity scrtest:
$(head -3 "$syslog")"
e2e_pass
