#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage.sh - perfx's usage texts against the machine's perf (6.1): where,
# with which exit status and in which layout 'perfx stat -h', its option
# errors, 'perfx list -h', 'perfx bench -h' and 'perfx' alone print, and
# each option perf has too, laid out and (but for the words perfx changes
# on purpose, DIFFERS below) worded as perf's.  env: PERFX.  Prints TAP
# lines.
#
# perf's text is read with "perf CMD" as "perfx CMD", 'perf list' as
# 'perfx list' and its quoting of an option, `e' or `event', as perfx's,
# '-e' or '--event'.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init usage
tap_workdir


# the options whose help perfx words otherwise: what perfx supports differs
DIFFERS=" --event --interval-print --repeat --verbose "

as_perfx()
{
	sed -e 's/perf \(stat\|list\|bench\|commands\|help\)/perfx \1/g' \
	    -e "s/switch \`\\(.\\)'/switch '-\\1'/" \
	    -e "s/option \`\\([^']*\\)'/option '--\\1'/"
}

# entries < usage: one line per option, "KEY<TAB>its lines joined by \n",
# KEY its long name (or -X)
entries()
{
	awk '
	function flush() { if (key != "") print key "\t" text; key = "" }
	/^    (-[^-]|    --)/ {
		flush()
		names = $0
		sub(/^ +/, "", names)
		sub(/  .*/, "", names)
		key = names
		if (match(names, /--[^ =[<]+/))
			key = substr(names, RSTART, RLENGTH)
		text = $0
		next
	}
	/^                          / && key != "" { text = text "\\n" $0; next }
	{ flush() }
	END { flush() }'
}

have_perf=
command -v perf > /dev/null && perf list sw > /dev/null 2>&1 && have_perf=1

# run NAME ARGS... - perfx ARGS into $work/NAME.{out,err,rc}; perf's too
run()
{
	local name=$1

	shift
	"$PERFX" "$@" > "$work/$name.out" 2> "$work/$name.err" < /dev/null
	echo $? > "$work/$name.rc"
	if [ -n "$have_perf" ]; then
		perf "$@" > "$work/$name.perf.out" 2> "$work/$name.perf.err" < /dev/null
		echo $? > "$work/$name.perf.rc"
	fi
}


# same_as_perf WHAT NAME - perfx's stderr, stdout and exit are perf's
same_as_perf()
{
	local what=$1 name=$2

	if [ -z "$have_perf" ]; then
		skip "$what" "no working perf here"
		return
	fi
	as_perfx < "$work/$name.perf.err" > "$work/$name.want"
	if cmp -s "$work/$name.want" "$work/$name.err" &&
	   cmp -s "$work/$name.rc" "$work/$name.perf.rc" && [ ! -s "$work/$name.out" ] &&
	   sanitizer_clean "$work/$name.err"; then
		ok "$what"
	else
		notok "$what"
		echo "#   exit $(cat "$work/$name.rc"), perf's $(cat "$work/$name.perf.rc"); diff perf perfx:"
		diff "$work/$name.want" "$work/$name.err" | head -8 | sed 's/^/#   /'
	fi
}

# perfx stat -h: stderr, exit 129, nothing on stdout, as perf
run stat-h stat -h
if [ "$(cat "$work/stat-h.rc")" = 129 ] && [ ! -s "$work/stat-h.out" ] &&
   [ "$(sed -n 2p "$work/stat-h.err")" = " Usage: perfx stat [<options>] [<command>]" ] &&
   [ -z "$(sed -n 1p "$work/stat-h.err")" ] && [ -z "$(sed -n 3p "$work/stat-h.err")" ] &&
   [ -z "$(tail -1 "$work/stat-h.err")" ] && sanitizer_clean "$work/stat-h.err"; then
	ok "perfx stat -h prints ' Usage: perfx stat [<options>] [<command>]' on stderr, exits 129"
else
	notok "perfx stat -h prints ' Usage: perfx stat [<options>] [<command>]' on stderr, exits 129"
	head -3 "$work/stat-h.err" | sed 's/^/#   /'
fi

if [ -z "$have_perf" ]; then
	skip "perfx stat -h's options as perf's" "no working perf here"
else
	entries < "$work/stat-h.err" > "$work/perfx.entries"
	as_perfx < "$work/stat-h.perf.err" | entries > "$work/perf.entries"
	# perf's order, of the options both have
	cut -f1 "$work/perf.entries" | grep -Fxf <(cut -f1 "$work/perfx.entries") > "$work/perf.order"
	cut -f1 "$work/perfx.entries" | grep -Fxf <(cut -f1 "$work/perf.entries") > "$work/perfx.order"
	if [ -s "$work/perf.order" ] && cmp -s "$work/perf.order" "$work/perfx.order"; then
		ok "perfx stat -h sorts the $(wc -l < "$work/perf.order") options perf has as perf"
	else
		notok "perfx stat -h sorts the options perf has as perf"
		diff "$work/perf.order" "$work/perfx.order" | sed 's/^/#   /'
	fi
	while IFS=$'\t' read -r key text; do
		want=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$work/perf.entries")
		[ -z "$want" ] && continue
		if [[ $DIFFERS == *" $key "* ]]; then
			# the names, the argument and the help's column or line, not its words
			text=$(sed -E 's/^(.*[^ ] {2,})[^ ].*$/\1.../' <<< "$text")
			want=$(sed -E 's/^(.*[^ ] {2,})[^ ].*$/\1.../' <<< "$want")
			what="perfx stat -h lays $key out as perf (its words are perfx's)"
		else
			what="perfx stat -h prints $key as perf"
		fi
		if [ "$text" = "$want" ]; then
			ok "$what"
		else
			notok "$what"
			printf '#   got:  %s\n#   want: %s\n' "$text" "$want"
		fi
	done < "$work/perfx.entries"
fi

run stat-h-x stat -h -x
same_as_perf "perfx stat -h -x shows only -x, as perf" stat-h-x
run stat-e stat -e
same_as_perf "perfx stat -e without a value: perf's error, usage line and -e" stat-e
run stat-event stat --event
same_as_perf "perfx stat --event without a value: perf's error" stat-event
run stat-fec stat --for-each-cgroup
same_as_perf "perfx stat --for-each-cgroup without a value: perf's error" stat-fec
# perf shows no option after this one (it looks for "big-num=3"): perfx does
run stat-bignum stat --big-num=3 true
head -2 "$work/stat-bignum.err" > "$work/stat-bignum.err2"
mv "$work/stat-bignum.err2" "$work/stat-bignum.err"
[ -n "$have_perf" ] && head -2 "$work/stat-bignum.perf.err" > "$work/stat-bignum.perf.err2" &&
	mv "$work/stat-bignum.perf.err2" "$work/stat-bignum.perf.err"
same_as_perf "perfx stat --big-num=3: perf's error and usage line" stat-bignum
run stat-g stat -G A -e task-clock true
same_as_perf "perfx stat -G before -e: perf's error, usage line and -G" stat-g

# unknown options: perf's layout, perfx's quoting ('--bogus', '-z'), the usage
for arg in --bogus -z; do
	run stat-bad stat "$arg" true
	case $arg in
	--*) want="  Error: unknown option '$arg'" ;;
	*) want="  Error: unknown switch '$arg'" ;;
	esac
	{ echo "$want"; cat "$work/stat-h.err"; } > "$work/want"
	if [ "$(cat "$work/stat-bad.rc")" = 129 ] && cmp -s "$work/want" "$work/stat-bad.err" &&
	   { [ -z "$have_perf" ] || [ "$(cat "$work/stat-bad.perf.rc")" = 129 ]; }; then
		ok "perfx stat $arg: the error, then the usage; exit 129 as perf"
	else
		notok "perfx stat $arg: the error, then the usage; exit 129 as perf"
		diff "$work/want" "$work/stat-bad.err" | head -5 | sed 's/^/#   /'
	fi
done

# perfx list -h: the layout of perf list -h
run list-h list -h
if [ "$(cat "$work/list-h.rc")" = 129 ] && [ ! -s "$work/list-h.out" ] &&
   [ "$(head -2 "$work/list-h.err")" = $'\n Usage: perfx list [hw|sw|cache|tracepoint|pmu|event_glob]' ] &&
   { [ -z "$have_perf" ] || [ "$(cat "$work/list-h.perf.rc")" = 129 ]; }; then
	ok "perfx list -h prints its usage line on stderr and exits 129, as perf list -h"
else
	notok "perfx list -h prints its usage line on stderr and exits 129, as perf list -h"
fi

# perfx bench -h: perf bench sched pipe -h's text, with -G
"$PERFX" bench -h > "$work/bench.out" 2>&1
if [ -z "$have_perf" ]; then
	skip "perfx bench -h lays out -l and -T as perf bench sched pipe -h" "no working perf here"
else
	perf bench sched pipe -h 2>&1 > /dev/null | as_perfx | entries > "$work/perf.entries"
	entries < "$work/bench.out" > "$work/perfx.entries"
	if [ "$(head -2 "$work/bench.out")" = $'\n Usage: perfx bench sched pipe <options>' ] &&
	   [ "$(grep -E '^--(loop|threaded)' "$work/perfx.entries")" = "$(cat "$work/perf.entries")" ]; then
		ok "perfx bench -h lays out -l and -T as perf bench sched pipe -h"
	else
		notok "perfx bench -h lays out -l and -T as perf bench sched pipe -h"
		diff "$work/perf.entries" "$work/perfx.entries" | sed 's/^/#   /'
	fi
fi

# perfx alone: perf's command list, exit 1; --help, -h and help: exit 0
run none
if [ -z "$have_perf" ]; then
	skip "perfx alone prints perf's command list" "no working perf here"
else
	as_perfx < "$work/none.perf.out" > "$work/want"
	good=1
	[ "$(cat "$work/none.rc")" = "$(cat "$work/none.perf.rc")" ] || good=
	for line in 1 3 4; do
		[ "$(sed -n ${line}p "$work/none.out")" = "$(sed -n ${line}p "$work/want")" ] || good=
	done
	[ "$(tail -3 "$work/none.out")" = "$(tail -3 "$work/want")" ] || good=
	for cmd in bench inject list record stat; do
		got=$(awk -v c="$cmd" '$1 == c { $1 = ""; print }' "$work/none.out")
		want=$(awk -v c="$cmd" '$1 == c { $1 = ""; print }' "$work/want")
		[ -n "$got" ] && [ "$got" = "$want" ] || good=
	done
	if [ -n "$good" ] && [ ! -s "$work/none.err" ]; then
		ok "perfx alone prints perf's command list on stdout and exits $(cat "$work/none.rc")"
	else
		notok "perfx alone prints perf's command list on stdout, exit as perf's"
		diff "$work/want" "$work/none.out" | head -8 | sed 's/^/#   /'
	fi
fi
for arg in --help -h help; do
	run help "$arg"
	if [ "$(cat "$work/help.rc")" = 0 ] && cmp -s "$work/help.out" "$work/none.out" &&
	   { [ -z "$have_perf" ] || [ "$(cat "$work/help.perf.rc")" = 0 ]; }; then
		ok "perfx $arg prints the command list and exits 0, as perf $arg"
	else
		notok "perfx $arg prints the command list and exits 0, as perf $arg"
	fi
done
# perfx --version, -v and version: one line on stdout, exit 0, as perf's
for arg in --version -v version; do
	run ver "$arg"
	if [ "$(cat "$work/ver.rc")" = 0 ] && [ ! -s "$work/ver.err" ] &&
	   grep -qx 'perfx version [0-9][0-9.]*[a-z.]*' "$work/ver.out" && [ "$(wc -l < "$work/ver.out")" = 1 ] &&
	   { [ -z "$have_perf" ] || grep -qx 'perf version [0-9.]*' "$work/ver.perf.out"; }; then
		ok "perfx $arg prints 'perfx version X' and exits 0, as perf $arg"
	else
		notok "perfx $arg prints 'perfx version X' and exits 0, as perf $arg"
		head -3 "$work/ver.out" "$work/ver.err" | sed 's/^/#   /'
	fi
done
run nosuch nosuch
if [ "$(cat "$work/nosuch.rc")" = 1 ] && grep -q "See 'perfx --help'" "$work/nosuch.err" &&
   { [ -z "$have_perf" ] || [ "$(cat "$work/nosuch.perf.rc")" = 1 ]; }; then
	ok "perfx nosuch says see 'perfx --help' and exits 1, as perf"
else
	notok "perfx nosuch says see 'perfx --help' and exits 1, as perf"
fi
