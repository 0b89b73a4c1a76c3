# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the test-bed scripts; sourced, never run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LINUX_SRC=${LINUX_SRC:-$BUILD/linux}
LINUX_TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
PATCHES=${PERFX_PATCHES:-$TOP/kernel/patches}
CONFIGS=${PERFX_CONFIGS:-$TOP/kernel/configs}
PROG=$(basename "$0")

die()
{
	echo "$PROG: error: $*" >&2
	exit 1
}

info()
{
	[ -n "${QUIET:-}" ] || echo "$PROG: $*" >&2
}

# hash_files FILE... - one digest over the names and contents of FILEs
hash_files()
{
	local f

	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		cat "$f"
	done | sha256sum | cut -d' ' -f1
}

# The series, applied in this order on the baseline: the cgroup fix the
# perf series depends on, the perf hotplug fix its fuzzer needs, the perf
# series, and the perf tool patches that use it; each directory holds a series file naming its patches.  The
# test bed's own tests name theirs with PERFX_SERIES_DIRS, or one with
# PERFX_PATCHES.
if [ -n "${PERFX_SERIES_DIRS:-}" ]; then
	SERIES_DIRS=$PERFX_SERIES_DIRS
elif [ -n "${PERFX_PATCHES:-}" ]; then
	SERIES_DIRS=$PERFX_PATCHES
else
	SERIES_DIRS="$TOP/kernel/cgroup-fix $TOP/kernel/perf-fix $TOP/kernel/patches $TOP/kernel/perf-tools"
fi

# series_dirs - the directories of SERIES_DIRS that hold a series
series_dirs()
{
	local d

	[ -f "$PATCHES/series" ] || die "${PATCHES#$TOP/}/series is missing"
	for d in $SERIES_DIRS; do
		[ -f "$d/series" ] && echo "$d"
	done
}

# dir_patches DIR - the patch files named by DIR/series, in order
dir_patches()
{
	local line

	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		[ -f "$1/$line" ] ||
			die "${1#$TOP/}/series names '$line', which does not exist"
		echo "$1/$line"
	done < "$1/series"
}

# series_patches - the patch files of every series, in the order applied
series_patches()
{
	local d

	for d in $(series_dirs); do
		dir_patches "$d"
	done
}

# notes PATCH - what PATCH says between its first "---" and its diffstat:
# remarks for the reviewer, which git am drops
notes()
{
	awk '
		!cut && /^---$/ { cut = 1; next }
		cut == 1 && (/^---$/ || /^ .* \| / || /^diff --git /) { exit }
		cut == 1 { print }' "$1"
}

# put_notes NOTES PATCH - the notes in file NOTES into PATCH, after its "---"
put_notes()
{
	[ -s "$1" ] || return 0
	awk -v notes="$1" '
		!done && /^---$/ {
			print
			while ((getline l < notes) > 0) print l
			print "---"
			done = 1
			next
		}
		{ print }' "$2" > "$2.notes" && mv "$2.notes" "$2"
}

# git in the unpacked kernel tree must work on a machine with no identity
git_identity()
{
	if [ -z "$(git config --global user.email 2>/dev/null)" ]; then
		export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-perfx test bed}
		export GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-perfx@localhost}
		export GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-perfx test bed}
		export GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-perfx@localhost}
	fi
}

BASE_TAG=perfx-base

# The applied state of build/linux: "SERIES-DIGEST HEAD", written when the
# tree matches kernel/patches (kernel-source, series-export)
SERIES_STAMP=$LINUX_SRC/.git/perfx-series

# context1 DIR NAME - does DIR/context1 name patch NAME (lines: GLOB # why)?
# Those are exported with one line of context, so that they apply with and
# without another series that adds lines near theirs.
context1()
{
	local glob rest

	while read -r glob rest; do
		case "$glob" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254
		case "${2%.patch}" in $glob) return 0 ;; esac
	done < "$1/context1"
	return 1
}

# allowed_types PATCH - checkpatch message types that the checkpatch.allow
# of PATCH's series directory lets it keep (lines: GLOB TYPE # why),
# comma-separated.  Each must be justified in the patch's changelog too.
allowed_types()
{
	local glob type rest types=
	local allow=${1%/*}/checkpatch.allow
	local name=${1##*/}

	[ -f "$allow" ] || return 0
	while read -r glob type rest; do
		case "$glob" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254
		case "${name%.patch}" in $glob) types+=${types:+,}$type ;; esac
	done < "$allow"
	echo "$types"
}

# checkpatch_patch PATCH [AS] - the tree's checkpatch.pl --strict on PATCH
# (a series file, or a mail of the series file AS), less the types its
# checkpatch.allow allows; prints what it finds
checkpatch_patch()
{
	local ignore

	ignore=$(allowed_types "${2:-$1}")
	# spdxcheck.py, which checkpatch runs, needs python3-ply and
	# python3-git: prefer the system python Debian installs them for
	(cd "$LINUX_SRC" && env PATH="/usr/bin:$PATH" ./scripts/checkpatch.pl \
		--strict --quiet --show-types ${ignore:+--ignore "$ignore"} "$1")
}

# series_digest - one digest over the series files and their patches
series_digest()
{
	local d list
	local -a files=()

	for d in $(series_dirs); do
		list=$(dir_patches "$d") || exit 1
		files+=("$d/series")
		[ -z "$list" ] || mapfile -t -O ${#files[@]} files <<< "$list"
	done
	hash_files "${files[@]}"
}

# series_stamp_write DIGEST - record that the tree's HEAD is that series
series_stamp_write()
{
	echo "$1 $(git -C "$LINUX_SRC" rev-parse HEAD)" > "$SERIES_STAMP"
}

# source_digest - one digest over build/linux as it is: HEAD, its changes
# and its untracked files, so a build is redone exactly when they change
source_digest()
{
	{
		git -C "$LINUX_SRC" rev-parse HEAD
		git -C "$LINUX_SRC" diff HEAD
		git -C "$LINUX_SRC" ls-files -o --exclude-standard -z |
			(cd "$LINUX_SRC" && xargs -0 -r sha256sum)
	} | sha256sum | cut -d' ' -f1
}

# elapsed - the time since SECONDS was last set, as "2m05s elapsed"
elapsed()
{
	printf '%dm%02ds elapsed' $((SECONDS / 60)) $((SECONDS % 60))
}

# build_progress WHAT TOTAL - count the objects kbuild names on stdin
# ("  CC      kernel/fork.o") and show how far WHAT is: one line rewritten
# in place on a terminal, else a line per tenth of TOTAL (or per minute
# without one; TOTAL 0: no total known)
build_progress()
{
	local what=$1 total=$2 n=0 line msg tty= shown=-1 last=$SECONDS step

	[ -t 2 ] && tty=1
	while IFS= read -r line; do
		case "$line" in
		"  CC "*|"  AS "*) n=$((n + 1)) ;;
		*) continue ;;
		esac
		[ -z "${QUIET:-}" ] || continue
		msg="$PROG: $what: $n"
		if [ "$total" -gt 0 ]; then
			msg+=" of ~$total objects ($((n * 100 / total))%)"
			step=$((n * 10 / total))
		else
			msg+=" objects"
			step=0
		fi
		msg+=", $(elapsed)"
		if [ -n "$tty" ]; then
			[ "$SECONDS" -eq "$last" ] && continue
			printf '\r\033[K%s' "$msg" >&2
		else
			[ "$step" -eq "$shown" ] && [ $((SECONDS - last)) -lt 60 ] && continue
			shown=$step
			echo "$msg" >&2
		fi
		last=$SECONDS
	done
	[ -n "$tty" ] && [ -z "${QUIET:-}" ] && printf '\r\033[K' >&2
	return 0
}
