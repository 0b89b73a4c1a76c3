# SPDX-License-Identifier: GPL-2.0
# record-args.sh - sourced by the perf record benchmarks (record.sh,
# record-numa.sh): their common options, with the caller's defaults
# already in rounds, freq and secs and the repository in here:
#   -r ROUNDS  -F FREQ  -s SECONDS  -o RESULT.md (out)
# and the caller's own: the letters in more_opts (getopts syntax), each
# handed to the caller's more_opt LETTER ARG;
# the perfx to run ($perfx) and a work directory ($work) removed at exit.
perfx=$here/tools/perfx/perfx
out=
while getopts "r:F:s:o:${more_opts:-}" o; do
	case $o in
	r) rounds=$OPTARG ;;
	F) freq=$OPTARG ;;
	s) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	\?) exit 2 ;;
	*) more_opt "$o" "$OPTARG" ;;
	esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
