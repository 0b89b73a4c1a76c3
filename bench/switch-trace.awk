# SPDX-License-Identifier: GPL-2.0
# switch-trace.awk - the instructions of switch-trace.py by function.
#
#   aarch64-linux-gnu-nm -n vmlinux | awk -f switch-trace.awk - TRACE
#
# The first input is the kernel's symbols by address (nm -n), the second
# the "profile PC COUNT" and "trace STEPS TRIPS" lines of a trace.  Prints
# each function's instructions per round trip and their share, largest
# first; user space PCs go to "[user]".

FNR == NR {
	if ($2 ~ /^[tTwW]$/) {
		addr[++nsym] = $1 ""
		name[nsym] = $3
	}
	next
}

$1 == "trace" {
	trips = $3
	next
}

# addresses are 16 hex digits, compared as strings (awk's numbers are
# doubles, too short for them)
$1 == "profile" && $2 ~ /^[0-9a-f]+$/ {
	ip = $2 ""
	total += $3
	if (!nsym || ip < addr[1]) {
		fn["[user]"] += $3
		next
	}
	lo = 1; hi = nsym
	while (lo < hi) {	# the last symbol at or below ip
		mid = int((lo + hi + 1) / 2)
		if (addr[mid] <= ip)
			lo = mid
		else
			hi = mid - 1
	}
	fn[name[lo]] += $3
}

END {
	if (!total || !trips) {
		print "switch-trace.awk: no trace" > "/dev/stderr"
		exit 1
	}
	printf "| function | instructions per round trip | share |\n|---|---:|---:|\n"
	cmd = "sort -t'|' -k3,3nr"
	for (f in fn)
		printf "| %s | %.1f | %.1f%% |\n", f, fn[f] / trips, 100 * fn[f] / total | cmd
	close(cmd)
	printf "| total | %.1f | |\n", total / trips
}
