# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by capture.sh and ../golden.sh: the cases and how to run one.

GOLDEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CG_A=perfx-golden-A
CG_B=perfx-golden-B
# the CPUs the shim fakes for a case that does not set FAKECOUNT_CPUS
GOLDEN_CPUS=2

cgroup2_mnt()
{
	awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo
}

# golden_cgroups_setup - create the two cgroups; fails without cgroup2/root.
# Runs at the same time (other clones of the tree) share them: each holds a
# shared lock while it runs and only the last one out removes them.
golden_cgroups_setup()
{
	local mnt

	mnt=$(cgroup2_mnt)
	[ -n "$mnt" ] || return 1
	exec {GOLDEN_LOCK}> /tmp/perfx-golden-cgroups.lock || return 1
	flock -s "$GOLDEN_LOCK" || return 1
	mkdir -p "$mnt/$CG_A" "$mnt/$CG_B" 2>/dev/null
}

golden_cgroups_cleanup()
{
	local mnt

	mnt=$(cgroup2_mnt)
	[ -n "$mnt" ] && flock -xn "$GOLDEN_LOCK" || return 0
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

# golden_intervals ARGS - how many intervals "-I MS ... sleep S" prints:
# every full one and the last part; the sleep must not be a multiple of
# the interval, so that the count does not hang on the timing
golden_intervals()
{
	awk '{
		for (i = 1; i < NF; i++)
			if ($i == "-I")
				ms = $(i + 1)
		if ($(NF - 1) == "sleep")
			print int($NF * 1000 / ms) + 1
	}' <<< "$1"
}

# golden_count_intervals FILE - how many intervals an -I output has
golden_count_intervals()
{
	grep -oE '^ *[0-9]+[.][0-9]{9}[ ,;]|^[{]"interval" : [0-9.]+,' "$1" | uniq | wc -l
}

# golden_run OUT ENVS ARGS TOOL [OPT...] - run `TOOL stat [OPT...] ARGS`
# with the shim $FAKECOUNT as a golden case does and store what it prints (or
# its -o file) in OUT; return its exit status.  The counts do not depend
# on the machine's CPUs: the shim makes it GOLDEN_CPUS unless ENVS says
# otherwise.  An -I case is run again (up to 5 times in all) until it
# prints golden_intervals() intervals, as a loaded machine can delay a
# tick past the end of the workload.  A run that takes a minute is killed.
golden_run()
{
	local out=$1 envs=$2 args=$3 tool=$4 want='' rc

	shift 4
	[[ " $args " == *" -I "* ]] && want=$(golden_intervals "$args")
	for _ in 1 2 3 4 5; do
		# shellcheck disable=SC2046,SC2086
		timeout 60 env LC_ALL=C FAKECOUNT_CPUS=$GOLDEN_CPUS $envs \
			LD_PRELOAD="$FAKECOUNT" "$tool" stat "$@" $(golden_args "$args" "$out.o") 2> "$out" > /dev/null
		rc=$?
		[[ $args == *@OUT* ]] && cat "$out.o" "$out" > "$out.e" && mv "$out.e" "$out"
		rm -f "$out.o"
		[ -z "$want" ] || [ "$(golden_count_intervals "$out")" = "$want" ] && break
	done
	return $rc
}

# golden_mask FILE - the output with time-dependent numbers replaced
golden_mask()
{
	sed -E -f "$GOLDEN_DIR/../mask.sed" "$1"
}
