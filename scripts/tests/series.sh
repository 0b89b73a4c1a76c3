#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# series.sh - host-side tests of what is sent upstream besides the kernel
# series itself: the perf_event_open(2) man page patch.
#
# The man page must apply to the man-pages release Debian ships, render
# without a groff warning, and say what the uapi header and the ABI
# document say: the same struct fields, the same errors for each ioctl.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/tests/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

man_patch=$(ls "$top"/kernel/man-pages/0001-*.patch 2>/dev/null | head -n 1)
man_src=/usr/share/man/man2/perf_event_open.2.gz
uapi=$top/build/linux/include/uapi/linux/perf_event.h
abi=$top/Documentation/perf-cgroup-share-abi.rst
page=$tmp/man2/perf_event_open.2

man_patch_applies()
{
	[ -n "$man_patch" ] || { echo "no patch in kernel/man-pages"; return 1; }
	mkdir -p "$tmp/man2" && zcat "$man_src" > "$page" || return 1
	(cd "$tmp" && patch -s -p1 --no-backup-if-mismatch < "$man_patch")
}

man_page_renders_cleanly()
{
	local warnings

	[ -f "$page" ] || man_patch_applies || return 1
	warnings=$(LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 "$page" 2>&1)
	[ -z "$warnings" ] || { echo "$warnings"; return 1; }
}

# struct_fields FILE STRUCT - "type name" of each field of STRUCT in FILE
struct_fields()
{
	sed -n "/^struct $2 {/,/^};/p" "$1" |
		sed -e '1d' -e '$d' -e 's,/\*.*\*/,,' -e 's/;//' |
		awk 'NF == 2 { print $1, $2 }'
}

man_structs_match_uapi()
{
	local s

	[ -f "$page" ] || man_patch_applies || return 1
	[ -f "$uapi" ] || { echo "$uapi missing: run make source"; return 1; }
	for s in perf_event_cgroup_attach perf_event_cgroup_read; do
		# the page indents its examples by four spaces
		sed 's/^    //' "$page" > "$tmp/page.flat"
		[ -n "$(struct_fields "$uapi" "$s")" ] ||
			{ echo "struct $s not found in the uapi header"; return 1; }
		diff <(struct_fields "$uapi" "$s") \
			<(struct_fields "$tmp/page.flat" "$s") ||
			{ echo "struct $s: uapi (<) and man page (>) differ"; return 1; }
	done
}

# abi_errors IOCTL - the errno names the ABI document lists for IOCTL
abi_errors()
{
	sed -n "/^$1\$/,/^Semantics\$\|^PERF_EVENT_IOC_READ_CGROUP\$/p" "$abi" |
		sed -n '/^Errors:/,$p' | grep -o '^``E[A-Z0-9]*``' | tr -d '`' | sort
}

# man_errors IOCTL - the errno names the man page lists for IOCTL
man_errors()
{
	sed -n "/^\.B $1\$/,/^\.RE\$/p" "$page" |
		sed -n '/^\.RS$/,$p' | grep -o '^\.B E[A-Z0-9]*$' | cut -d' ' -f2 | sort
}

man_errors_match_abi()
{
	local ioc

	[ -f "$page" ] || man_patch_applies || return 1
	for ioc in PERF_EVENT_IOC_ATTACH_CGROUP PERF_EVENT_IOC_READ_CGROUP; do
		[ -n "$(abi_errors $ioc)" ] ||
			{ echo "no errors of $ioc found in ${abi#$top/}"; return 1; }
		diff <(abi_errors $ioc) <(man_errors $ioc) ||
			{ echo "$ioc: ABI document (<) and man page (>) differ"; return 1; }
	done
}

t "the man page patch applies to man-pages as Debian ships it" man_patch_applies
t "the patched man page renders without a groff warning" man_page_renders_cleanly
t "the man page's structs are the uapi header's" man_structs_match_uapi
t "the man page lists the ABI document's errors for each ioctl" man_errors_match_abi
tap_summary series
