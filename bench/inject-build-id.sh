#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# inject-build-id.sh - perfx inject against perf inject in one run.
#
#   bench/inject-build-id.sh [-i ITERATIONS] [-s "MB..."] [-p MAXMB] [-o RESULT.md]
#
# 1. perf's benchmark as each tool runs it: `perf bench internals
#    inject-build-id -i N` and `perfx bench internals inject-build-id -i
#    N`, three times in turn: usec/event and max RSS.  Each tool's
#    generator writes one write(2) per record, which costs more than
#    perfx's inject, so these compare the generators as much as inject.
# 2. inject alone: `perfx bench internals inject-build-id --injector
#    "perfx inject" --injector "perf inject" --floor` runs both injectors
#    and cat, exec'd alike, in turn on the same streams of the same
#    generator (same --seed), once writing a record per write(2) (perf's
#    way) and once --buffered: wall usec/event, the injector's own CPU
#    usec/event (user + sys, which the generator and the load of other
#    jobs do not inflate) and max RSS; three runs of N iterations.
# 3. The floor: a pipe-mode stream of the same kind written to a file of
#    S MB, then `cat FILE | X > /dev/null` for X = cat, perfx inject -b,
#    perf inject -b: wall and CPU time and max RSS of X, best of 5.  perf
#    only up to MAXMB (default 100): its RSS grows with the stream (1.1 GB
#    after 5 minutes on 1 GB here) and it does not finish in reasonable
#    time.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
perfx=$here/tools/perfx/perfx
iter=20
sizes="10 100 1000"
maxperf=100
out=
while getopts "i:s:p:o:" o; do
	case $o in
	i) iter=$OPTARG ;;
	s) sizes=$OPTARG ;;
	p) maxperf=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() { sed -n "$2p" "$1" | grep -oE '[0-9]+\.[0-9]+|[0-9]+ KB' | head -1 | tr -d ' KB'; }
# blocks FILE: "injector|mode|wall usec/event|CPU usec/event|RSS KB" per
# injector and mode of a run of perfx's benchmark with its own options
blocks()
{
	awk '/Injector:/ { sub(/.*Injector: /, ""); sub(/.*\//, ""); inj = $0 }
	     /build-id-all injection took/ { mode = "--buildid-all" }
	     /build-id injection took/ { mode = "-b" }
	     /Average time per event/ { wall = $5 }
	     /Average memory usage/ { rss = $4 }
	     /injector CPU time per event/ { print inj "|" mode "|" wall "|" $7 "|" rss }' "$1"
}
# cat_field FILE MODE N: field N of cat's line of MODE in blocks FILE
cat_field() { blocks "$1" | awk -F'|' -v m="$2" -v n="$3" '$1 == "cat" && $2 == m { print $n }'; }

{
echo "# inject-build-id: perf $(perf version | cut -d' ' -f3) vs perfx, $(date -u +%F), $(nproc) CPUs"
echo
echo "Command: bench/inject-build-id.sh -i $iter -s \"$sizes\" -p $maxperf"
echo
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | tool | -b usec/event | -b RSS KB | --buildid-all usec/event | --buildid-all RSS KB |"
echo "|---|---|---|---|---|---|"
for run in 1 2 3; do
	perf bench internals inject-build-id -i "$iter" > "$work/perf" 2>&1
	"$perfx" bench internals inject-build-id -i "$iter" > "$work/perfx" 2>&1
	"$perfx" bench internals inject-build-id -i "$iter" --floor > "$work/floor" 2>&1
	for t in perf perfx; do
		echo "| $run | $t | $(field "$work/$t" 3) | $(field "$work/$t" 4) | $(field "$work/$t" 6) | $(field "$work/$t" 7) |"
	done
	echo "| $run | floor | $(cat_field "$work/floor" -b 3) | $(cat_field "$work/floor" -b 5) |" \
	     "$(cat_field "$work/floor" --buildid-all 3) | $(cat_field "$work/floor" --buildid-all 5) |"
	echo "$(field "$work/perfx" 3) $(field "$work/perf" 3) $(cat_field "$work/floor" -b 3)" >> "$work/ratios"
	echo "$(field "$work/perfx" 6) $(field "$work/perf" 6) $(cat_field "$work/floor" --buildid-all 3)" \
		>> "$work/ratios"
done
echo
echo "(floor: cat in inject's place, perfx bench --floor's cat: the generator's"
echo "one write(2) per record and the pipes, which both tools pay)"
echo
awk 'NR % 2 == 1 { b += $1 / $2; nb++; if ($2 > $3) { be += ($1 - $3) / ($2 - $3); ne++ } }
     NR % 2 == 0 { a += $1 / $2; na++; if ($2 > $3) { ae += ($1 - $3) / ($2 - $3); me++ } }
     END {
	printf "perfx / perf time per event: -b %.2f, --buildid-all %.2f (mean of %d runs)\n", b / nb, a / na, nb
	printf "above the floor, perfx / perf: -b %.2f, --buildid-all %.2f\n", ne ? be / ne : 0, me ? ae / me : 0
     }' "$work/ratios"
echo
echo "## inject alone: perfx inject, perf inject and cat on the same streams"
echo
echo "Load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "perfx bench internals inject-build-id -i $iter --seed RUN --injector \"perfx inject\" --injector \"perf inject\" --floor [--buffered],"
echo "runs 1-3; usec per event: wall (the generator's too) and the injector's CPU; max RSS"
echo
echo "| generator | mode | injector | wall usec/event | CPU usec/event | max RSS KB |"
echo "|---|---|---|---|---|---|"
for gen in per-record buffered; do
	opt=
	[ $gen = buffered ] && opt=--buffered
	: > "$work/alone"
	for run in 1 2 3; do
		"$perfx" bench internals inject-build-id -i "$iter" --seed "$run" $opt \
			--injector "$perfx inject" --injector "perf inject" --floor > "$work/b" 2>&1
		blocks "$work/b" >> "$work/alone"
	done
	awk -F'|' -v gen="$gen" '
		{ k = $2 "|" $1; w[k] += $3; c[k] += $4; r[k] += $5; n[k]++; order[k] = ++i }
		END {
			for (k in n) {
				split(k, a, "|")
				printf "| %s | %s | %s | %.3f | %.3f | %.0f |\n", gen, a[1], a[2],
				       w[k] / n[k], c[k] / n[k], r[k] / n[k]
			}
		}' "$work/alone" | sort -t'|' -k3,3 -k4,4r
	awk -F'|' '
		{ k = $2; if ($1 ~ /^perfx/) { pw[k] += $3; pc[k] += $4 } else if ($1 ~ /^perf /) { fw[k] += $3; fc[k] += $4 } else { cw[k] += $3; cc[k] += $4 } }
		END {
			for (k in pw)
				printf "|  |  | perfx / perf %s | %.2f | %.2f |  |\n", k, pw[k] / fw[k], pc[k] / fc[k]
			for (k in pw)
				printf "|  |  | perfx above cat / perf above cat %s | %.2f | %.2f |  |\n", k,
				       (pw[k] - cw[k]) / (fw[k] - cw[k]), (pc[k] - cc[k]) / (fc[k] - cc[k])
		}' "$work/alone"
done
echo
echo "Load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "Floor: the same kind of stream from a file through a pipe, cat FILE | X > /dev/null;"
echo "best of 5 of X's wall time and of its CPU time (user + sys, which the load"
echo "of other jobs does not inflate) in seconds, and its max RSS in MB"
echo
echo "| stream | records | cat wall / CPU | perfx inject -b wall / CPU / RSS | perf inject -b wall / CPU / RSS | perfx / cat wall | perf / perfx CPU | perfx CPU usec/record |"
echo "|---|---|---|---|---|---|---|---|"
for mb in $sizes; do
	recs=$(python3 - "$work/s.data" "$mb" <<'PY'
import os, struct, sys
path, mb = sys.argv[1], int(sys.argv[2])
dsos = []
for root, _, files in os.walk('/usr/lib/x86_64-linux-gnu'):
    for f in sorted(files):
        p = os.path.join(root, f)
        if '.so' in f and os.path.isfile(p) and not os.path.islink(p):
            dsos.append(p)
        if len(dsos) == 400:
            break
    break
PID = 1000
def rec(t, misc, body):
    return struct.pack('<IHH', t, misc, 8 + len(body)) + body
attr = struct.pack('<IIQQQQQ', 1, 128, 1, 0, (1 << 16) | 7, 0, (1 << 18) | (1 << 5)).ljust(128, b'\0')
head = struct.pack('<QQ', 0x32454c4946524550, 16) + rec(64, 0, attr + struct.pack('<Q', 0))
chunk = []
for i, d in enumerate(dsos[:100]):
    name = d.encode() + b'\0'
    name += b'\0' * (-len(name) % 8)
    addr = 0x400000 + i * 8192
    body = struct.pack('<IIQQQIIQQII', PID, PID, addr, 4096, 0, 8, 0, i, 0, 4, 0) + name + bytes(32)
    chunk.append(rec(10, 2, body))
    s = rec(9, 2, struct.pack('<QQIIQ', 0, addr, PID, PID, i))
    chunk.append(s * 100)
    chunk.append(rec(68, 0, b''))
chunk = b''.join(chunk)
n = max(1, mb * 1000000 // len(chunk))
with open(path, 'wb') as f:
    f.write(head)
    for _ in range(n):
        f.write(chunk)
print(1 + n * 100 * 102)
PY
)
	# best CMD: "wall cpu rss" of CMD in cat FILE | CMD > /dev/null (seconds
	# to the millisecond, MB): the least wall and CPU time of 5 runs (wait4's
	# rusage is CMD's alone), then its max RSS under /usr/bin/time (a child
	# of Python's would count Python's pages, which exec keeps in it)
	best() {
		python3 - "$work/s.data" $1 <<'PY'
import os, subprocess, sys, time
def run(argv):
    t = time.perf_counter()
    cat = subprocess.Popen(['cat', sys.argv[1]], stdout=subprocess.PIPE)
    x = subprocess.Popen(argv, stdin=cat.stdout, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    cat.stdout.close()
    _, _, ru = os.wait4(x.pid, 0)
    wall = time.perf_counter() - t
    cat.wait()
    return wall, ru.ru_utime + ru.ru_stime
runs = [run(sys.argv[2:]) for _ in range(5)]
rss = os.path.join(os.path.dirname(sys.argv[1]), 'rss')
run(['/usr/bin/time', '-f', '%M', '-o', rss] + sys.argv[2:])
print('%.3f %.3f %.1f' % (min(r[0] for r in runs), min(r[1] for r in runs),
                          int(open(rss).read().split()[-1]) / 1024))
PY
	}
	read -r cw cc cr < <(best cat)
	read -r xw xc xr < <(best "$perfx inject -b")
	if [ "$mb" -le "$maxperf" ]; then
		read -r pw pc pr < <(best "perf inject -b")
		ratio=$(awk "BEGIN { printf \"%.1f\", $pc / ($xc > 0 ? $xc : 0.001) }")
		perfcol="$pw / $pc / $pr"
	else
		ratio=-
		perfcol=-
	fi
	echo "| ${mb} MB | $recs | $cw / $cc | $xw / $xc / $xr | $perfcol |" \
	     "$(awk "BEGIN { printf \"%.2f\", $xw / ($cw > 0 ? $cw : 0.001) }") | $ratio |" \
	     "$(awk "BEGIN { printf \"%.3f\", $xc * 1e6 / $recs }") |"
done
} | tee ${out:+"$out"}
