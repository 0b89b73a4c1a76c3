# SPDX-License-Identifier: GPL-2.0
# cgroup-switch-icount.awk - the table of bench/cgroup-switch-icount.sh.
#
# Input: the "icount MODE E K DEPTH NS" lines of every boot, one file per
# boot named KERNEL-N.log (KERNEL: series or base; with -v kernels=1, the
# series only).  Output: a markdown table with a column per boot, the
# ratios the series is judged by, and the largest difference between two
# boots of one kernel.

function key_name(k,	f) {
	split(k, f, SUBSEP)
	return f[1] " | " f[2] " | " f[3] " | " f[4]
}

# the key of mode @m in the group (E, K, depth) of key @k
function group_key(k, m,	f) {
	split(k, f, SUBSEP)
	return m SUBSEP f[2] SUBSEP f[3] SUBSEP f[4]
}

function mean(kern, k,	b, n, s) {
	for (b = 1; b <= boots; b++)
		if ((kern, b, k) in ns) {
			s += ns[kern, b, k]
			n++
		}
	return n ? s / n : -1
}

function fmt(x) {
	return x < 0 ? "-" : sprintf("%.0f", x)
}

function ratio(a, b) {
	return a < 0 || b <= 0 ? "-" : sprintf("%.2fx", a / b)
}

BEGIN {
	if (!kernels)
		kernels = 2
}

$1 == "icount" && $2 ~ /^(nothing|plain|cgroup|shared|bpf)$/ && NF >= 6 {
	n = split(FILENAME, path, "/")
	split(path[n], kb, /[-.]/)
	k = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
	if (!(k in seen)) {
		seen[k] = 1
		order[++nkeys] = k
	}
	if ($6 == "-") {
		if (!((k, kb[1]) in said)) {
			said[k, kb[1]] = 1
			$1 = $2 = $3 = $4 = $5 = $6 = ""
			why[k] = why[k] (why[k] == "" ? "" : "; ") kb[1] ": " substr($0, 7)
		}
		next
	}
	ns[kb[1], kb[2], k] = $6
}

END {
	head = "| mode | E | K | depth |"
	rule = "|---|---|---|---|"
	for (kern = 1; kern <= kernels; kern++)
		for (b = 1; b <= boots; b++) {
			head = head " " (kern == 1 ? "series" : "base") " " b " |"
			rule = rule "---:|"
		}
	print head (kernels == 2 ? " series / base |" : "") " x plain |"
	print rule (kernels == 2 ? "---:|" : "") "---:|"
	for (i = 1; i <= nkeys; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		line = "| " key_name(k) " |"
		for (kern = 1; kern <= kernels; kern++)
			for (b = 1; b <= boots; b++) {
				kname = kern == 1 ? "series" : "base"
				line = line " " fmt((kname, b, k) in ns ? ns[kname, b, k] : -1) " |"
			}
		s = mean("series", k)
		p = mean("series", group_key(k, "plain"))
		if (kernels == 2)
			line = line " " ratio(s, mean("base", k)) " |"
		line = line " " (f[1] == "nothing" || f[1] == "plain" ? "-" : ratio(s, p)) " |"
		print line
	}

	# what the benchmark resolves: the largest spread between boots
	worst = 0
	for (i = 1; i <= nkeys; i++)
		for (kern = 1; kern <= kernels; kern++) {
			kname = kern == 1 ? "series" : "base"
			lo = -1; hi = -1
			for (b = 1; b <= boots; b++) {
				if (!((kname, b, order[i]) in ns))
					continue
				v = ns[kname, b, order[i]]
				if (lo < 0 || v < lo) lo = v
				if (v > hi) hi = v
			}
			if (lo > 0 && (hi - lo) / lo > worst) {
				worst = (hi - lo) / lo
				worst_abs = hi - lo
				worst_key = kname " " key_name(order[i])
			}
		}
	print ""
	printf "Largest difference between two boots of one kernel: %.2f%% (%d instructions, %s).\n",
	       worst * 100, worst_abs, worst_key
	print ""
	for (i = 1; i <= nkeys; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		if (f[1] != "shared" && f[1] != "bpf")
			continue
		ck = group_key(k, "cgroup")
		printf "E = %d, K = %d, depth %d: cgroup events / %s %s\n", f[2], f[3], f[4],
		       f[1], ratio(mean("series", ck), mean("series", k))
	}
	for (i = 1; i <= nkeys; i++)
		if (order[i] in why)
			printf "%s: %s\n", key_name(order[i]), why[order[i]]
}
