#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# series.sh - host-side tests of what is sent upstream: the mails
# `make series-mail` writes, the perf_event_open(2) man page patch, and
# the uapi header's account of the ioctls' errors.
#
# The mails must carry the sender's identity and nobody's placeholder, be
# numbered as one series each, and hold the stored patches' changes; no
# identity, or a placeholder, must stop series-mail before it writes.
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
page=$tmp/man/man2/perf_event_open.2

man_patch_applies()
{
	[ -n "$man_patch" ] || { echo "no patch in kernel/man-pages"; return 1; }
	mkdir -p "$tmp/man/man2" && zcat "$man_src" > "$page" || return 1
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

# uapi_errors IOCTL - the errno names the uapi header's comment on the
# argument of IOCTL names
uapi_errors()
{
	sed -n "/Argument of $1:/,/^struct/p" "$uapi" | grep -ow 'E[A-Z0-9]\{3,\}' | sort -u
}

uapi_errors_match_abi()
{
	local ioc

	[ -f "$uapi" ] || { echo "$uapi missing: run make source"; return 1; }
	for ioc in PERF_EVENT_IOC_ATTACH_CGROUP PERF_EVENT_IOC_READ_CGROUP; do
		diff <(abi_errors $ioc) <(uapi_errors $ioc) ||
			{ echo "$ioc: ABI document (<) and uapi header (>) differ"; return 1; }
	done
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

SENDER="A U Thor <author@example.com>"

# mail NAME EMAIL ARGS... - series-mail as NAME <EMAIL>, whatever the
# repository's own identity
mail()
{
	local name=$1 email=$2

	shift 2
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=$name \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=$email \
		"$top/scripts/series-mail" "$@"
}

# refused NAME EMAIL EXPECTED - series-mail as NAME <EMAIL> fails, says
# EXPECTED, and writes nothing
refused()
{
	local err

	if err=$(mail "$1" "$2" -o "$tmp/refused" 2>&1); then
		echo "series-mail took '$1 <$2>'"
		return 1
	fi
	grep -q "$3" <<< "$err" || { echo "$err"; echo "(expected: $3)"; return 1; }
	[ ! -e "$tmp/refused" ] || { echo "it wrote $tmp/refused"; return 1; }
}

mail_refuses_placeholders()
{
	refused "Seed 6fe536cb maintainers" \
		maintainers@users.noreply.a-seed-6fe536cb.example "is a placeholder" &&
	refused "A U Thor" "" "user.email is not set" &&
	refused "" author@example.com "user.name is not set" &&
	refused "Jane Roe" jane@users.noreply.github.com "is a placeholder" &&
	refused "perfx test bed" perfx@kernel.org "not a person's name"
}

mails_written()
{
	[ -d "$tmp/mail/patches" ] ||
		mail "A U Thor" author@example.com -o "$tmp/mail" > "$tmp/mail.log" 2>&1 ||
		{ cat "$tmp/mail.log"; return 1; }
}

# patch_mails - the patch mails of the perf series, cover letter aside
patch_mails()
{
	ls "$tmp"/mail/patches/*.patch | grep -v '/0000-cover-letter.patch$'
}

mails_are_the_senders()
{
	local m bad=0

	mails_written || return 1
	for m in "$tmp"/mail/*/*.patch; do
		grep -qxF "From: $SENDER" "$m" || { echo "${m##*/}: not from the sender"; bad=1; }
		case "$m" in */0000-cover-letter.patch) continue ;; esac
		[ "$(grep -cxF "Signed-off-by: $SENDER" "$m")" = 1 ] ||
			{ echo "${m##*/}: not signed off once by the sender"; bad=1; }
	done
	! grep -l 'noreply\|a-seed-' "$tmp"/mail/*/*.patch || bad=1
	return $bad
}

mails_are_one_numbered_series()
{
	local n m i=0 want

	mails_written || return 1
	n=$(patch_mails | wc -l)
	[ "$n" -gt 1 ] || { echo "$n patch mails"; return 1; }
	grep -q "^Subject: \[PATCH v5 0*0/$n\] " "$tmp/mail/patches/0000-cover-letter.patch" ||
		{ grep '^Subject' "$tmp/mail/patches/0000-cover-letter.patch"; return 1; }
	while IFS= read -r m; do
		i=$((i + 1))
		want=$(printf "%0${#n}d/%d" "$i" "$n")
		grep -q "^Subject: \[PATCH v5 $want\] " "$m" ||
			{ echo "${m##*/}: $(grep '^Subject' "$m"), expected $want"; return 1; }
	done < <(patch_mails)
	grep -q '^base-commit: [0-9a-f]\{40\}$' "$tmp/mail/patches/0000-cover-letter.patch" ||
		{ echo "no base-commit in the cover letter"; return 1; }
}

# header NAME MAIL - the value of MAIL's header NAME, unfolded
header()
{
	awk -v name="$1" '
		/^$/ { exit }
		/^[ \t]/ { if (on) v = v " " $0; next }
		{ on = (index($0, name ": ") == 1); if (on) v = substr($0, length(name) + 3) }
		END { gsub(/[ \t]+/, " ", v); print v }' "$2"
}

mails_are_addressed()
{
	local m

	mails_written || return 1
	for m in "$tmp"/mail/patches/*.patch; do
		header To "$m" | grep -q '<peterz@infradead.org>' &&
			header Cc "$m" | grep -q 'linux-perf-users@vger.kernel.org' ||
			{ echo "${m##*/}: To/Cc without the perf maintainers and list"; return 1; }
	done
	[ "$(header To "$tmp"/mail/man-pages/*.patch)" = 'Alejandro Colomar <alx@kernel.org>' ]
}

cgroup_fix_mails_apart()
{
	local d=$tmp/mail/cgroup-fix

	mails_written || return 1
	grep -q '^Subject: \[PATCH 0/2\] cgroup: ' "$d/0000-cover-letter.patch" &&
		grep -q '^Subject: \[PATCH 1/2\] cgroup: ' "$d"/0001-*.patch &&
		grep -q '^Subject: \[PATCH 2/2\] selftests/cgroup: ' "$d"/0002-*.patch ||
		{ grep -h '^Subject' "$d"/*.patch; return 1; }
	grep -q '^Fixes: [0-9a-f]\{12\} ("cgroup: ' "$d"/0001-*.patch &&
		grep -qx 'Cc: stable@vger.kernel.org' "$d"/0001-*.patch ||
		{ echo "patch 1 has no Fixes: or no Cc: stable"; return 1; }
	header To "$d/0000-cover-letter.patch" | grep -q '<tj@kernel.org>' ||
		{ echo "the cgroup fix is not addressed to the cgroup maintainers"; return 1; }
	! grep -l 'selftests/perf_events\|^diff --git a/kernel/events' "$d"/*.patch
}

# the mails change what the stored patches change, patch for patch
mails_hold_the_series()
{
	local p m i=0
	local -a mails

	mails_written || return 1
	mapfile -t mails < <(patch_mails)
	while IFS= read -r p; do
		case "$p" in *0000-*|'') continue ;; esac
		m=${mails[i]:-}
		[ -n "$m" ] || { echo "no mail for $p"; return 1; }
		[ "$(git patch-id --stable < "$top/kernel/patches/$p" | cut -d' ' -f1)" = \
		  "$(git patch-id --stable < "$m" | cut -d' ' -f1)" ] ||
			{ echo "${m##*/} changes other code than $p"; return 1; }
		i=$((i + 1))
	done < <(sed 's/#.*//' "$top/kernel/patches/series")
	[ "$i" = ${#mails[@]} ] || { echo "${#mails[@]} mails for $i patches"; return 1; }
}

# make install of the tree's perf_events selftests lists cgroup_share_compat32
# only where the compiler builds it: a compiler without -m32 leaves it out
# (no rsync of a missing file), one with -m32 builds and installs it
compat32_installed_only_if_built()
{
	local d=$top/build/linux/tools/testing/selftests/perf_events
	local out=$tmp/ksft

	[ -f "$d/cgroup_share.c" ] || { echo "build/linux lacks the series: run make source"; return 1; }
	mkdir -p "$out/no-m32" "$out/gcc"
	printf '#!/bin/sh\nfor a; do [ "$a" = -m32 ] && exit 1; done\nexec gcc "$@"\n' > "$tmp/cc-no-m32"
	chmod +x "$tmp/cc-no-m32"
	make -s -C "$d" CC="$tmp/cc-no-m32" OUTPUT="$out/no-m32" -n install \
		INSTALL_PATH="$out/i" > "$out/no-m32.log" 2>&1 || { cat "$out/no-m32.log"; return 1; }
	! grep -q 'rsync.*cgroup_share_compat32' "$out/no-m32.log" ||
		{ echo "installed without being built"; return 1; }
	if gcc -m32 -ffreestanding -fsyntax-only "$d/cgroup_share_compat32.c" 2>/dev/null; then
		make -s -C "$d" OUTPUT="$out/gcc" -n install \
			INSTALL_PATH="$out/i" > "$out/gcc.log" 2>&1 ||
			{ cat "$out/gcc.log"; return 1; }
		grep -q 'rsync.*cgroup_share_compat32' "$out/gcc.log" ||
			{ echo "gcc -m32 works but the helper is not installed"; return 1; }
	fi
}


t "series-mail refuses a placeholder or missing identity, writes nothing" mail_refuses_placeholders
t "the mails are the sender's: From and one Signed-off-by" mails_are_the_senders
t "the mails are one series: [PATCH v5 n/N], base-commit" mails_are_one_numbered_series
t "the mails are addressed as get_maintainer.pl says" mails_are_addressed
t "the mails change what the stored patches change" mails_hold_the_series
t "the cgroup fix is a series of its own, for stable" cgroup_fix_mails_apart
t "the man page patch applies to man-pages as Debian ships it" man_patch_applies
t "the patched man page renders without a groff warning" man_page_renders_cleanly
t "the man page's structs are the uapi header's" man_structs_match_uapi
t "the man page lists the ABI document's errors for each ioctl" man_errors_match_abi
t "the uapi header lists the ABI document's errors for each ioctl" uapi_errors_match_abi
t "cgroup_share_compat32 is installed only where it is built" compat32_installed_only_if_built
tap_summary series
