#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# serve.sh - perfx stat --for-each-cgroup --serve on the host, as root:
# two cgroups, A with a busy loop in it and B idle, served on a free
# loopback port and scraped with curl:
#  - no Accept header: the text format 0.0.4 (its Content-Type), and
#    Prometheus's Accept: OpenMetrics 1.0.0, each read back by the
#    Prometheus client's own parser (python3-prometheus-client; strict
#    for OpenMetrics): the four families, their types and units, one
#    sample per family, cgroup and event, with cAdvisor's labels;
#  - A's task-clock and time enabled grow between two scrapes by about
#    the time between them (the busy loop runs most of it), B's does
#    not; in auto mode (BPF on a stock kernel) and per-cgroup mode;
#  - 404 for another path, 405 (with Allow) for POST, HEAD answered;
#  - an address in use or malformed: an error naming it and its errno,
#    exit 1; --serve without --for-each-cgroup or with a command: usage;
#  - 200 curl at once, a few connections that send nothing and a request
#    whose headers pass the request limit: perfx answers after them, an
#    idle connection is closed by the timeout, and VmRSS stays bounded;
#  - a client sending its request a byte at a time does not hold up
#    another's scrape, and is answered; one that half-closes after its
#    request is answered, one that half-closes in the middle of it is
#    closed, and perfx holds no more sockets afterwards than before;
#  - SIGINT: nothing printed, perfx dies of SIGINT (as perfx stat -a),
#    no sanitizer report.
# perfx runs with ASan's quarantine off, so that VmRSS is what it holds.
# env: PERFX.  Prints TAP lines.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
tap_init serve
PERFX=${PERFX:?}
PY=/usr/bin/python3
tap_workdir
mnt=
pfx=perfx-serve-$$
pids=()
perfx_pid=

finish()
{
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2> /dev/null
	[ -z "$perfx_pid" ] || kill -KILL "$perfx_pid" 2> /dev/null
	wait 2> /dev/null
	[ -z "$mnt" ] || rmdir "$mnt/$pfx-A" "$mnt/$pfx-B" 2> /dev/null
	rm -rf "$work"
}
trap finish EXIT

TESTS=("the text format" "OpenMetrics" "counters grow" "per-cgroup mode" "404, 405, HEAD"
       "bad addresses"
       "usage errors" "hammered" "slow and half-closed clients" "SIGINT")

[ "$(id -u)" = 0 ] || skip_all "needs root"
command -v curl > /dev/null || skip_all "no curl (scripts/deps installs it)"
"$PY" -c 'import prometheus_client' 2> /dev/null ||
	skip_all "no python3-prometheus-client (scripts/deps installs it)"
tap_cgroup2 || skip_all "no cgroup2 mount"
mkdir -p "$mnt/$pfx-A" "$mnt/$pfx-B" || skip_all "cannot create cgroups under $mnt"

# a busy loop in A
sh -c "echo \$\$ > $mnt/$pfx-A/cgroup.procs && exec sh -c 'while :; do :; done'" &
pids+=($!)

free_port()
{
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start perfx on a free port (another may take it in between: retried)
for try in 1 2 3 4 5; do
	port=$(free_port)
	url=http://127.0.0.1:$port/metrics
	# ASan's quarantine keeps what is freed (up to 256 MiB): off, so
	# that VmRSS tells whether memory is held
	ASAN_OPTIONS=$ASAN_OPTIONS:quarantine_size_mb=0:thread_local_quarantine_size_kb=0 \
	"$PERFX" stat -a -e task-clock,context-switches --for-each-cgroup "$pfx-A,$pfx-B" \
		--serve "127.0.0.1:$port" > "$work/out" 2> "$work/err" &
	perfx_pid=$!
	for i in $(seq 100); do
		curl -s -o /dev/null "$url" && break
		kill -0 "$perfx_pid" 2> /dev/null || break
		sleep 0.1
	done
	kill -0 "$perfx_pid" 2> /dev/null && break
	wait "$perfx_pid"
	perfx_pid=
	grep -q EADDRINUSE "$work/err" || break
done
[ -n "$perfx_pid" ] || skip_all "perfx --serve did not start: $(head -1 "$work/err")"
echo "# serving on $url"

# scrape NAME [CURL ARGS...] - $work/NAME.{body,hdr}; the status on stdout
scrape()
{
	local name=$1

	shift
	curl -sS -o "$work/$name.body" -D "$work/$name.hdr" -w '%{http_code}' "$@" "$url" \
		2> "$work/$name.curl"
}

# header NAME FIELD - a response header's value
header()
{
	awk -v f="$2" 'BEGIN { IGNORECASE = 1 }
		{ sub(/\r$/, "") } tolower($0) ~ "^" tolower(f) ":" { sub(/^[^:]*: */, ""); print }' \
		"$work/$1.hdr"
}

# parse NAME text|om - the body through the Prometheus client's parser:
# "family type unit sample cpu event id value" lines, sorted
parse()
{
	"$PY" - "$work/$1.body" "$2" << 'EOF'
import sys
from prometheus_client import parser as text
from prometheus_client.openmetrics import parser as om
body = open(sys.argv[1]).read()
fams = (om if sys.argv[2] == "om" else text).text_string_to_metric_families(body)
out = []
for f in fams:
    for s in f.samples:
        l = s.labels
        out.append("%s %s %s %s cpu=%s event=%s id=%s %r" % (f.name, f.type,
                   getattr(f, "unit", "") or "-", s.name, l.get("cpu", "?"),
                   l.get("event"), l.get("id"), s.value))
print("\n".join(sorted(out)))
EOF
}

# the families and labels both formats must have: one sample per
# family, cgroup and event (the values left out)
for cg in A B; do
	for ev in context-switches task-clock; do
		for f in "container_perf_events counter - container_perf_events_total" \
			 "container_perf_events_scaling_ratio gauge - container_perf_events_scaling_ratio" \
			 "perfx_perf_events_time_enabled_seconds counter seconds perfx_perf_events_time_enabled_seconds_total" \
			 "perfx_perf_events_time_running_seconds counter seconds perfx_perf_events_time_running_seconds_total"; do
			echo "$f cpu= event=$ev id=/$pfx-$cg"
		done
	done
done | sort > "$work/want.om"
# the text format has no units
sed 's/ seconds / - /' "$work/want.om" | sort > "$work/want.text"

tap_diag()
{
	sed 's/^/#   /' "$work/err" 2> /dev/null | head -8
	for f in "$work"/*.parsed; do
		[ -f "$f" ] && diff <(sed 's/ [^ ]*$//' "$f") "${f%.parsed}.want" | head -8 | sed 's/^/#   /'
	done
	rm -f "$work"/*.parsed
}

# check_format NAME KIND CONTENT-TYPE [CURL ARGS...]
check_format()
{
	local name=$1 kind=$2 ctype=$3 status

	shift 3
	status=$(scrape "$name" "$@")
	cp "$work/want.$kind" "$work/$name.want"
	[ "$status" = 200 ] && [ "$(header "$name" Content-Type)" = "$ctype" ] &&
		parse "$name" "$kind" > "$work/$name.parsed" &&
		cmp -s <(sed 's/ [^ ]*$//' "$work/$name.parsed") "$work/$name.want"
}

what="the text format: no Accept gets text 0.0.4, the 4 families, cAdvisor's labels"
check_format text text "text/plain; version=0.0.4; charset=utf-8" -H "Accept:" &&
	grep -q '^# TYPE container_perf_events_total counter$' "$work/text.body"
verdict
rm -f "$work"/*.parsed

PROM_ACCEPT='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
what="OpenMetrics: Prometheus's Accept gets OpenMetrics 1.0.0, units, # EOF"
check_format om om "application/openmetrics-text; version=1.0.0; charset=utf-8" \
	-H "Accept: $PROM_ACCEPT" && [ "$(tail -1 "$work/om.body")" = "# EOF" ]
verdict
rm -f "$work"/*.parsed

# value NAME SAMPLE EVENT CGROUP - one sample's value in scrape NAME
value()
{
	parse "$1" text | awk -v s="$2" -v e="event=$3" -v c="id=/$pfx-$4" \
		'$4 == s && $6 == e && $7 == c { print $8 }'
}

# growth WHAT - two scrapes of $url 1 s apart: A's task-clock grows by
# 0.2 s or more (its busy loop may share a CPU), at most the time
# between, and its time enabled grows; B's (idle) by a tenth of A's at most
growth()
{
	local t0 t1 a1 a2 b1 b2 e1 e2

	t0=$(date +%s%N)
	scrape grow1 > /dev/null
	sleep 1
	scrape grow2 > /dev/null
	t1=$(date +%s%N)
	a1=$(value grow1 container_perf_events_total task-clock A)
	a2=$(value grow2 container_perf_events_total task-clock A)
	b1=$(value grow1 container_perf_events_total task-clock B)
	b2=$(value grow2 container_perf_events_total task-clock B)
	e1=$(value grow1 perfx_perf_events_time_enabled_seconds_total task-clock A)
	e2=$(value grow2 perfx_perf_events_time_enabled_seconds_total task-clock A)
	echo "# $1: A's task-clock ${a1:-?} -> ${a2:-?} ns, enabled ${e1:-?} -> ${e2:-?} s, B's ${b1:-?} -> ${b2:-?} ns, in $(((t1 - t0) / 1000000)) ms"
	[ -n "$a1" ] && [ -n "$a2" ] && [ -n "$b1" ] && [ -n "$b2" ] && [ -n "$e1" ] &&
		[ -n "$e2" ] &&
		awk -v a1="$a1" -v a2="$a2" -v b1="$b1" -v b2="$b2" -v e1="$e1" -v e2="$e2" \
			-v dt="$((t1 - t0))" 'BEGIN { exit !(a2 - a1 >= 0.2e9 &&
				a2 - a1 <= dt * 1.05 && e2 > e1 && b2 - b1 <= (a2 - a1) / 10) }'
}

what="counters grow: A's task-clock by its busy loop's time between two scrapes, not idle B's"
growth "auto mode"
verdict

# the same through per-cgroup events, on another port
what="per-cgroup mode: the same growth"
port2=$(free_port)
url2=http://127.0.0.1:$port2/metrics
ASAN_OPTIONS=$ASAN_OPTIONS:quarantine_size_mb=0:thread_local_quarantine_size_kb=0 \
"$PERFX" stat -a --cgroup-mode per-cgroup -e task-clock,context-switches \
	--for-each-cgroup "$pfx-A,$pfx-B" --serve "127.0.0.1:$port2" > "$work/out2" 2> "$work/err2" &
pid2=$!
pids+=("$pid2")
for i in $(seq 100); do
	curl -s -o /dev/null "$url2" && break
	sleep 0.1
done
url1=$url
url=$url2
growth "per-cgroup mode"
verdict
url=$url1
kill -INT "$pid2"
wait "$pid2"
rc2=$?

what="404 for /, 405 with Allow: GET, HEAD for POST, 200 for HEAD"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" = 404 ] &&
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics/x")" = 404 ] &&
	[ "$(scrape post -X POST -d x=1)" = 405 ] && [ "$(header post Allow)" = "GET, HEAD" ] &&
	[ "$(scrape head -I)" = 200 ]
verdict

# expect_fail WHAT REGEX ARGS... - perfx ARGS fails with status 1, saying REGEX
expect_status()
{
	local rc=$1 regex=$2

	shift 2
	"$PERFX" "$@" > "$work/fail.out" 2> "$work/fail.err" < /dev/null
	[ $? = "$rc" ] && grep -qE "$regex" "$work/fail.err" && [ ! -s "$work/fail.out" ] &&
		sanitizer_clean "$work/fail.err"
}

what="bad addresses: in use (EADDRINUSE), malformed (EINVAL): named, exit 1"
expect_status 1 "^perfx: --serve '127.0.0.1:$port': cannot listen on 127.0.0.1 port $port: Address already in use \(EADDRINUSE\)$" \
	stat -a -e task-clock --for-each-cgroup "$pfx-A" --serve "127.0.0.1:$port" &&
	expect_status 1 "^perfx: --serve '::1:80': expected \[ADDRESS:\]PORT, .*\(EINVAL\)$" \
		stat -a -e task-clock --for-each-cgroup "$pfx-A" --serve ::1:80 &&
	expect_status 1 "^perfx: --serve '127.0.0.1:0': expected .*\(EINVAL\)$" \
		stat -a -e task-clock --for-each-cgroup "$pfx-A" --serve 127.0.0.1:0 &&
	expect_status 1 "^perfx: --serve '10.0.0.300:9100': expected .*\(EINVAL\)$" \
		stat -a -e task-clock --for-each-cgroup "$pfx-A" --serve 10.0.0.300:9100
verdict

what="usage errors: --serve without --for-each-cgroup, with a command, with -x"
expect_status 129 "^--serve needs --for-each-cgroup$" stat -a -e task-clock --serve 9100 &&
	expect_status 129 "^--serve counts until SIGINT or SIGTERM and prints nothing" \
		stat -a -e task-clock --for-each-cgroup "$pfx-A" --serve 9100 true &&
	expect_status 129 "^--serve counts until SIGINT or SIGTERM and prints nothing" \
		stat -a -x, -e task-clock --for-each-cgroup "$pfx-A" --serve 9100
verdict

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$perfx_pid/status"; }

# hammer - 200 scrapes at once (some refused by the limits); how many
# were answered 200 on stdout
hammer()
{
	local curls=() i

	: > "$work/hammer"
	for i in $(seq 200); do
		curl -s -m 30 -o /dev/null -w '%{http_code}\n' -H "Accept: $PROM_ACCEPT" "$url" \
			>> "$work/hammer" 2>&1 &
		curls+=($!)
	done
	wait "${curls[@]}"
	grep -c '^200$' "$work/hammer"
}

# the hammer: 5 connections that send nothing, a request past the limit
# on its headers, twice 200 scrapes at once: the first round may grow
# perfx's heap to what the limits allow, the second must not grow it
rss0=$(rss)
idle=()
for i in 1 2 3 4 5; do
	exec {fd}<> "/dev/tcp/127.0.0.1/$port" && idle+=("$fd")
done
big=$(head -c 20000 /dev/zero | tr '\0' a)
big_status=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $big" "$url")
ok200=$(hammer)
rss1=$(rss)
ok200_2=$(hammer)
after=$(scrape after)
rss2=$(rss)
# an idle connection is closed by the server after its timeout (10 s)
t0=$(date +%s)
timeout 20 cat <&"${idle[0]}" > /dev/null
closed=$(($(date +%s) - t0))
for fd in "${idle[@]}"; do
	exec {fd}<&-
done
echo "# hammer: $ok200 and $ok200_2 of 200 answered 200, headers past the limit: $big_status, VmRSS $rss0 -> $rss1 -> $rss2 kB, an idle connection closed after ${closed} s"
what="hammered: answers after 2 x 200 curl at once, 5 idle, headers too large (431); idle closed; VmRSS bounded"
kill -0 "$perfx_pid" && [ "$after" = 200 ] && [ "$ok200" -ge 1 ] && [ "$ok200_2" -ge 1 ] &&
	[ "$big_status" = 431 ] && [ "$closed" -le 15 ] && [ -n "$rss0" ] && [ -n "$rss2" ] &&
	[ "$rss1" -le $((rss0 + 8192)) ] && [ "$rss2" -le $((rss1 + 1024)) ]
verdict

sockets() { find "/proc/$perfx_pid/fd" -lname 'socket:*' | wc -l; }

# sockets_settle - until perfx holds its listening socket only (the
# server closes idle connections after 10 s): how many it holds then
sockets_settle()
{
	local _

	for _ in $(seq 150); do
		[ "$(sockets)" -le 1 ] && break
		sleep 0.1
	done
	sockets
}

# slow_and_half_closed - the clients of the test, in python; prints what
# each got, fails if any did not get what it should
slow_and_half_closed()
{
	"$PY" - "$port" << 'EOF2'
import socket, sys, threading, time, urllib.request

port = int(sys.argv[1])
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=20)

def status(s):
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            return data.split(b"\r\n", 1)[0].decode()
        data += b

# slow: a byte every 50 ms, about 3 s; another scrape meanwhile is quick
slow = {}
def slow_client():
    with connect() as s:
        for i in range(len(req)):
            s.sendall(req[i:i + 1])
            time.sleep(0.05)
        slow["status"] = status(s)
t = threading.Thread(target=slow_client)
t.start()
time.sleep(0.5)
t0 = time.monotonic()
code = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).status
quick = time.monotonic() - t0
t.join()
print("slow client: %s; a scrape meanwhile: %d in %.2f s" % (slow.get("status"), code, quick))
ok = slow.get("status", "").endswith(" 200 OK") and code == 200 and quick < 2

# half-closed after the request: answered
with connect() as s:
    s.sendall(req)
    s.shutdown(socket.SHUT_WR)
    after = status(s)
print("half-closed after the request: %s" % after)
ok = ok and after.endswith(" 200 OK")

# half-closed in the middle of the headers: closed, with or without an answer
with connect() as s:
    s.sendall(req[:20])
    s.shutdown(socket.SHUT_WR)
    t0 = time.monotonic()
    middle = status(s)
    took = time.monotonic() - t0
print("half-closed in the request: closed after %.2f s, status line %r" % (took, middle))
ok = ok and took < 15
sys.exit(0 if ok else 1)
EOF2
}

# the slow and half-closed clients: once the hammer's connections are
# gone, and again after these clients, perfx holds its listening socket
# only
socks0=$(sockets_settle)
slow_and_half_closed > "$work/slow" 2>&1
slow_rc=$?
sed 's/^/# /' "$work/slow"
socks1=$(sockets_settle)
echo "# perfx's sockets: $socks0 before, $socks1 after"
what="slow and half-closed clients: answered or closed, not holding up others, no socket left"
[ "$slow_rc" = 0 ] && [ "$socks0" = 1 ] && [ "$socks1" = 1 ] && kill -0 "$perfx_pid"
verdict

kill -INT "$perfx_pid"
wait "$perfx_pid"
rc=$?
perfx_pid=
what="SIGINT: both perfx die of it (130), print no table, no sanitizer report"
[ "$rc" = 130 ] && [ "$rc2" = 130 ] && [ ! -s "$work/out" ] && [ ! -s "$work/out2" ] &&
	! grep -v "^perfx: --for-each-cgroup: .* BPF" "$work/err" | grep -q . &&
	sanitizer_clean "$work/err" "$work/err2"
verdict
