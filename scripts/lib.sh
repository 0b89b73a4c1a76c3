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

# series_patches - the patch files named by kernel/patches/series, in order
series_patches()
{
	local line

	[ -f "$PATCHES/series" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | tr -d '[:space:]')
		[ -n "$line" ] || continue
		[ -f "$PATCHES/$line" ] ||
			die "kernel/patches/series names '$line', which does not exist"
		echo "$PATCHES/$line"
	done < "$PATCHES/series"
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

# series_digest - one digest over the series file and its patches
series_digest()
{
	local list
	local -a patches=()

	[ -f "$PATCHES/series" ] || die "kernel/patches/series is missing"
	list=$(series_patches) || exit 1
	[ -z "$list" ] || mapfile -t patches <<< "$list"
	hash_files "$PATCHES/series" "${patches[@]}"
}

# series_stamp_write DIGEST - record that the tree's HEAD is that series
series_stamp_write()
{
	echo "$1 $(git -C "$LINUX_SRC" rev-parse HEAD)" > "$SERIES_STAMP"
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
