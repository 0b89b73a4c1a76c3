#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh - a short smoke run of the reader's libFuzzer target over a seed
# corpus of perf's and perfx's files and pipes: no crash, leak or
# sanitizer report in FUZZ_TIME seconds (default 20).
# env: PERFX, FUZZER (the target; absent without clang).  Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init fuzz
what="the reader survives ${FUZZ_TIME:-20} s of libFuzzer"
if [ -z "${FUZZER:-}" ] || [ ! -x "$FUZZER" ]; then
	skip "$what" "no clang: the target was not built"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
if command -v perf > /dev/null &&
   perf record -q -e cpu-clock -o "$work/corpus/perf.data" -- ls / > /dev/null 2>&1; then
	perf record -q -e cpu-clock -o - -- ls / 2> /dev/null > "$work/corpus/perf.pipe"
	"$PERFX" inject -b -i "$work/corpus/perf.data" -o "$work/corpus/perfx.data" 2> /dev/null
	"$PERFX" inject -b -i "$work/corpus/perf.data" > "$work/corpus/perfx.pipe" 2> /dev/null
fi
if "$FUZZER" -max_total_time="${FUZZ_TIME:-20}" -max_len=65536 -rss_limit_mb=1024 \
	-artifact_prefix="$work/" "$work/corpus" > "$work/log" 2>&1; then
	ok "$what ($(grep -oE '#[0-9]+' "$work/log" | tail -1 | tr -d '#') runs)"
else
	notok "$what"
	grep -E 'ERROR|SUMMARY|artifact' "$work/log" | sed 's/^/#   /' | head -8
fi
