#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# output-paths.sh - what perfx record -o and perfx inject -o do to what the
# path names, whatever goes wrong: private device nodes (of /dev/null,
# /dev/full, /dev/tty and a pty), FIFOs, symlinks and regular files stay
# what they were after a workload that cannot run, an output that cannot
# be opened (ENXIO), written (ENOSPC) or sought (ESPIPE), and signals;
# a FIFO gets a pipe's stream perf reads; inject removes its temporary
# file on SIGINT.  perfx record used to unlink any of them.  env: PERFX.
# Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init output-paths
tap_workdir
cd "$work" || exit 1
check() { if "$@"; then ok "$what"; else notok "$what"; fi; }
export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$work/san" UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$work/san"

if ! "$PERFX" record -q -e cpu-clock -o probe.data -- true 2> err; then
	skip "record and inject -o" "perfx record -e cpu-clock does not work here: $(head -1 err)"
	exit 0
fi
# what a path is: its type, and a device's numbers or a file's content
what_is() { stat -c '%F %t:%T' "$1" 2> /dev/null; [ -f "$1" ] && md5sum < "$1"; }
nodes=
if mknod null c 1 3 && mknod full c 1 7 && mknod tty c 5 0; then
	nodes=1
fi
mkfifo fifo
ln -s /proc/self/fd/1 stdout-link
echo previous > file
ln -s file file-link

# record CASE ARGS... - perfx record -q ARGS, stdout into a pipe that is
# read to the end, so that stdout-link is a pipe
record() { "$PERFX" record -q "$@" 2> err | cat > piped; return "${PIPESTATUS[0]}"; }

# 1: a workload that cannot run: nothing is touched
for out in null full tty fifo stdout-link file file-link; do
	if [ "$out" = fifo ]; then
		timeout 10 cat fifo > /dev/null &
	elif [ -z "$nodes" ] && [ ! -e "$out" ]; then
		skip "record -o $out: a workload that cannot run" "cannot make device nodes here"
		continue
	fi
	before=$(what_is "$out")
	setsid -w "$PERFX" record -q -e cpu-clock -o "$out" -- ./nonexistent 2> err | cat > /dev/null
	rc=${PIPESTATUS[0]}
	wait
	what="record -o $out, a workload that cannot run: exit 255, '$out' as it was, no $out.old"
	[ "$rc" -eq 255 ] && [ "$(what_is "$out")" = "$before" ] && [ ! -e "$out.old" ]
	verdict
done

# 2: devices: written in place, kept whatever happens
if [ -n "$nodes" ]; then
	before=$(what_is null)
	record -e cpu-clock -o null -- true
	what="record -o a /dev/null node: exit 0, the node kept"
	[ $? -eq 0 ] && [ "$(what_is null)" = "$before" ]
	verdict
	before=$(what_is full)
	record -e cpu-clock -o full -- true
	rc=$?
	what="record -o a /dev/full node: exit 255 naming ENOSPC, the node kept"
	[ $rc -eq 255 ] && grep -q 'full: .*ENOSPC' err && [ "$(what_is full)" = "$before" ]
	verdict
	before=$(what_is tty)
	setsid -w "$PERFX" record -q -e cpu-clock -o tty -- true 2> err
	rc=$?
	what="record -o a /dev/tty node with no terminal: exit 255 naming the path and ENXIO, the node kept"
	[ $rc -eq 255 ] && grep -q '^perfx: tty: cannot open it for writing: .*(ENXIO)' err &&
		[ "$(what_is tty)" = "$before" ]
	verdict
	before=$(what_is null)
	"$PERFX" record -q -a -e cpu-clock -o null > /dev/null 2> err &
	pid=$!
	sleep 1
	kill -KILL $pid
	wait $pid 2> /dev/null
	what="record -a -o a /dev/null node, SIGKILL: the node kept"
	check [ "$(what_is null)" = "$before" ]
else
	skip "record -o device nodes" "cannot make device nodes here"
fi

# 3: a pty: a device that cannot seek, so perf.data's header cannot be
# rewritten (ESPIPE); a link to it must stay
python3 - "$PERFX" > pty.out 2> err <<'EOF'
import os, pty, stat, subprocess, sys, tty
master, slave = pty.openpty()
tty.setraw(slave)
# a link of our own: a node made with mknod cannot open a pty (EIO)
os.symlink(os.ttyname(slave), "pty")
p = subprocess.Popen([sys.argv[1], "record", "-q", "-e", "cpu-clock", "-o", "pty", "--", "true"],
                     stderr=open("pty.err", "w"))
os.set_blocking(master, False)
while p.poll() is None:
    try:
        os.read(master, 65536)
    except (BlockingIOError, OSError):
        pass
print(p.returncode, os.path.islink("pty"), stat.S_ISCHR(os.stat("pty").st_mode))
EOF
what="record -o a link to a pty: exit 255 naming ESPIPE, the link and the pty kept"
[ "$(cat pty.out)" = "255 True True" ] && grep -q 'ESPIPE' pty.err
verdict

# 4: a FIFO and a symlink to a pipe get a pipe's stream
timeout 20 cat fifo > fifo.data &
record -e cpu-clock -o fifo -- true
rc=$?
wait
what="record -o FIFO: exit 0, a pipe's stream perf script reads, the FIFO kept"
[ $rc -eq 0 ] && [ -p fifo ] && perf script -i - < fifo.data > /dev/null 2> err &&
	[ "$(head -c 8 fifo.data)" = PERFILE2 ] && [ "$(od -An -tu8 -j8 -N8 fifo.data | tr -d ' ')" = 16 ]
verdict
record -e cpu-clock -o stdout-link -- true
rc=$?
what="record -o a symlink to /proc/self/fd/1, a pipe: exit 0, the stream through the pipe, the link kept"
[ $rc -eq 0 ] && [ -L stdout-link ] && perf script -i - < piped > /dev/null 2>&1
verdict

# 5: signals while recording system-wide into a regular file end it, as perf
rm -f sig.data
"$PERFX" record -q -a -e cpu-clock -o sig.data > /dev/null 2> err &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
what="record -a, SIGINT: a whole file perf reads, exit 130 as perf"
[ $rc -eq 130 ] && perf report --stdio -i sig.data > /dev/null 2> err && ! grep -q 'properly terminated' err
verdict

# 6: inject: the same kinds of output
# a file whose second record says it has 0 bytes: the output is open
# and written when inject finds it
"$PERFX" record -q -e cpu-clock -o in.data -- true 2> err
"$PERFX" record -q -e cpu-clock -o - -- true > in.pipe 2> err
u64_at() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
data=$(u64_at in.data 40)
first=$(od -An -tu2 -j $((data + 6)) -N2 in.data | tr -d ' ')
cp in.data cut.data
printf '\0\0' | dd of=cut.data bs=1 seek=$((data + first + 6)) conv=notrunc status=none
for out in null full tty fifo stdout-link file file-link; do
	if [ -z "$nodes" ] && [ ! -e "$out" ]; then
		skip "inject -o $out" "cannot make device nodes here"
		continue
	fi
	[ "$out" = fifo ] && { timeout 10 cat fifo > /dev/null & }
	before=$(what_is "$out")
	setsid -w "$PERFX" inject -i cut.data -o "$out" 2> err | cat > /dev/null
	rc=${PIPESTATUS[0]}
	wait
	# /dev/full fails at the first write, /dev/tty (no terminal) at open
	case $out in
	full) why='ENOSPC' ;;
	tty) why='ENXIO' ;;
	*) why='size 0' ;;
	esac
	what="inject -i a bad file -o $out: exit 255 naming $why, '$out' as it was, no temporary file"
	[ "$rc" -eq 255 ] && grep -q "$why" err && [ "$(what_is "$out")" = "$before" ] &&
		[ -z "$(ls -d "$out".perfx-* 2> /dev/null)" ]
	verdict
done
if [ -n "$nodes" ]; then
	before=$(what_is full)
	"$PERFX" inject -i in.data -o full 2> err
	rc=$?
	what="inject -o a /dev/full node: exit 255 naming ENOSPC, the node kept"
	[ $rc -eq 255 ] && grep -q 'ENOSPC' err && [ "$(what_is full)" = "$before" ]
	verdict
fi

# 7: inject, a signal while its input waits: the temporary file is
# removed and the signal kills it, as it would have (perl un-ignores the
# SIGINT a script's background job starts with)
mkfifo in.fifo
for sig in INT TERM; do
	before=$(what_is file)
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$PERFX" inject -i in.fifo -o file 2> err &
	pid=$!
	exec 3> in.fifo
	head -c 1000 in.pipe >&3
	for i in $(seq 50); do
		ls -d file.perfx-* > /dev/null 2>&1 && break
		sleep 0.1
	done
	had_temp=$(ls -d file.perfx-* 2> /dev/null)
	kill -$sig $pid
	wait $pid
	rc=$?
	exec 3>&-
	what="inject, SIG$sig while it reads: killed by SIG$sig (exit $rc), its temporary file gone, the output as it was"
	[ -n "$had_temp" ] && [ $rc -eq $((128 + $(kill -l $sig))) ] && [ ! -e "$had_temp" ] &&
		[ "$(what_is file)" = "$before" ]
	verdict
done

what="no sanitizer report in any of it"
check [ -z "$(cat "$work"/san.* 2> /dev/null)" ]
