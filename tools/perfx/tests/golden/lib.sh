# SPDX-License-Identifier: GPL-2.0
# Shared by capture.sh and ../golden.sh: the cases and how to run one.

GOLDEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CG_A=perfx-golden-A
CG_B=perfx-golden-B

cgroup2_mnt()
{
	awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo
}

# golden_cgroups_setup - create the two cgroups; fails without cgroup2/root
golden_cgroups_setup()
{
	local mnt

	mnt=$(cgroup2_mnt)
	[ -n "$mnt" ] || return 1
	mkdir -p "$mnt/$CG_A" "$mnt/$CG_B" 2>/dev/null
}

golden_cgroups_cleanup()
{
	local mnt

	mnt=$(cgroup2_mnt)
	[ -n "$mnt" ] || return 0
	rmdir "$mnt/$CG_A" "$mnt/$CG_B" 2>/dev/null || true
}

# golden_args ARGS OUTFILE - substitute @A, @B and @OUT
golden_args()
{
	local a=$1

	a=${a//@A/$CG_A}
	a=${a//@B/$CG_B}
	a=${a//@OUT/$2}
	echo "$a"
}

# golden_mask FILE [interval] - the output with time-dependent numbers
# replaced; of an -I output only the first interval is kept (how many
# intervals a command spans depends on the machine's load)
golden_mask()
{
	if [ "${2:-}" = interval ]; then
		awk '{
			ts = ""
			if (match($0, /^ *[0-9]+[.][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][ ,;]/))
				ts = substr($0, 1, RLENGTH)
			else if (match($0, /^[{]"interval" : [0-9.]+,/))
				ts = substr($0, 1, RLENGTH)
			if (ts != "" && first == "")
				first = ts
			if (ts != "" && ts != first)
				exit
			print
		}' "$1"
	else
		cat "$1"
	fi | sed -E -f "$GOLDEN_DIR/../mask.sed"
}
