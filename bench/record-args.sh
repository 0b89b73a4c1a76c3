# SPDX-License-Identifier: GPL-2.0
# record-args.sh - sourced by the perf record benchmarks (record.sh,
# record-numa.sh): their common options, with the caller's defaults
# already in rounds, freq and secs and the repository in here:
#   -r ROUNDS  -F FREQ  -s SECONDS  -o RESULT.md (out)
# the perfx to run ($perfx) and a work directory ($work) removed at exit.
perfx=$here/tools/perfx/perfx
out=
while getopts "r:F:s:o:" o; do
	case $o in
	r) rounds=$OPTARG ;;
	F) freq=$OPTARG ;;
	s) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
