#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# package.sh - perfx as hosts deploy it: `make install`, the Debian package
# (scripts/perfx-deb) and the examples of Documentation/deploy.
#
# The package must pass lintian without an error or a warning, have its
# dependencies resolved by apt, install with dpkg into a scratch root and
# run from there; `perfx help CMD` must open the installed man
# page.  The systemd unit must pass systemd-analyze verify, the DaemonSet
# must parse, and both must name only options perfx stat has: a unit or a
# manifest with an option perfx lacks must fail these checks.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/tests/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

deploy=$top/Documentation/deploy
unit=$deploy/perfx-stat.service
manifest=$deploy/perfx-daemonset.yaml
root=$tmp/root
deb=

# t runs each test in a subshell: the package's path is found after it
package_builds()
{
	local out

	out=$("$top/scripts/perfx-deb" -o "$tmp/deb") || return 1
	[ -f "$out" ] || { echo "perfx-deb printed '$out', not a file"; return 1; }
}

package_is_lintian_clean()
{
	local out

	[ -n "$deb" ] || return 1
	out=$(lintian --fail-on error,warning --tag-display-limit 0 "$deb" 2>&1) ||
		{ echo "$out"; return 1; }
	echo "$out"
	! grep -qE '^[EW]: ' <<< "$out"
}

package_depends_resolve()
{
	[ -n "$deb" ] || return 1
	apt-get -s -q install "$deb" > "$tmp/apt.log" 2>&1 ||
		{ cat "$tmp/apt.log"; return 1; }
}

# dpkg with a database of its own and no log: the host's root is not
# touched, and the libraries perfx needs are the host's (--force-depends);
# every path, whatever the host's dpkg.cfg.d leaves out (minimal images
# drop man pages and docs)
package_installs_into_scratch_root()
{
	[ -n "$deb" ] || return 1
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" &&
		touch "$root/var/lib/dpkg/status" &&
		dpkg --instdir="$root" --admindir="$root/var/lib/dpkg" --log=/dev/null \
			--path-include='/*' --force-depends --force-script-chrootless \
			-i "$deb" &&
		dpkg --admindir="$root/var/lib/dpkg" -s perfx | grep -qx 'Status: install ok installed'
}

installed_perfx_runs()
{
	local want got

	want=$(dpkg-deb -f "$deb" Version) || return 1
	got=$("$root/usr/bin/perfx" --version) || return 1
	[ "$got" = "perfx version $want" ] ||
		{ echo "perfx --version: '$got', the package's: '$want'"; return 1; }
}

# every command's man page is installed, compressed, and renders with
# its references to the others as NAME(N)
installed_man_pages_render()
{
	local txt cmd page out

	for txt in "$top"/tools/perfx/Documentation/perfx*.txt; do
		cmd=$(basename "$txt" .txt)
		page=$root/usr/share/man/man1/$cmd.1.gz
		[ -f "$page" ] || { echo "no $page"; return 1; }
		out=$(zcat "$page" | LC_ALL=C.UTF-8 MANWIDTH=80 man -l - 2>&1)
		grep -q "^${cmd^^}(1)" <<< "$out" || { echo "$page does not render"; return 1; }
		! grep -n 'linkperfx' <<< "$out" || return 1
	done
	grep -q 'perfx-stat(1)' <<< "$(zcat "$root/usr/share/man/man1/perfx.1.gz" |
		MANWIDTH=80 man -l - 2> /dev/null)"
}

# perfx help CMD: the page beside the binary, through man as perf does it
help_opens_man_page()
{
	local bin=$1 out

	out=$(MANPAGER=cat MANWIDTH=80 "$bin" help stat 2>&1) || return 1
	grep -q '^PERFX-STAT(1)' <<< "$out" ||
		{ echo "perfx help stat showed:"; head -5 <<< "$out"; return 1; }
	grep -q -- '--for-each-cgroup' <<< "$out"
}

# without a page beside the binary, help falls back to the usage text
help_without_page_shows_usage()
{
	local out

	cp "$root/usr/bin/perfx" "$tmp/perfx" || return 1
	out=$("$tmp/perfx" help stat 2>&1) || return 1
	grep -q 'Usage: perfx stat' <<< "$out" || { echo "$out"; return 1; }
}

make_install_honours_prefix_and_destdir()
{
	local dest=$tmp/dest f

	make -s -C "$top" install PREFIX=/opt/perfx DESTDIR="$dest" || return 1
	for f in bin/perfx share/man/man1/perfx.1 share/man/man1/perfx-stat.1; do
		[ -f "$dest/opt/perfx/$f" ] || { echo "no $dest/opt/perfx/$f"; return 1; }
	done
	[ -x "$dest/opt/perfx/bin/perfx" ] || return 1
	help_opens_man_page "$dest/opt/perfx/bin/perfx"
}

# unit_verify UNIT - systemd-analyze verify against the scratch root, where
# /usr/bin/perfx is the package's; a warning fails as an error does
unit_verify()
{
	local out rc=0

	install -D -m 644 "$1" "$root/etc/systemd/system/perfx-stat.service" || return 1
	# the units it is ordered after and wanted by: the host's
	[ -d "$root/usr/lib/systemd/system" ] ||
		{ mkdir -p "$root/usr/lib/systemd" &&
		  cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"; } || return 1
	out=$(systemd-analyze verify --root="$root" --man=no \
		/etc/systemd/system/perfx-stat.service 2>&1) || rc=$?
	if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
		echo "$out"
		return 1
	fi
}

# perfx_stat_has OPT... - each -x or --long of OPT... is one of perfx
# stat's options; the other words are their arguments
perfx_stat_has()
{
	local help opt

	help=$("$root/usr/bin/perfx" stat -h 2>&1)
	grep -q 'Usage: perfx stat' <<< "$help" || { echo "$help"; return 1; }
	for opt in "$@"; do
		case "$opt" in
		--*) grep -qE -- "(^|[ ,])${opt%%=*}([ =]|$)" <<< "$help" ;;
		-?) grep -qE -- "^ +${opt}," <<< "$help" ;;
		*) continue ;;
		esac || { echo "perfx stat has no option $opt"; return 1; }
	done
}

# the words of the unit's ExecStart after "/usr/bin/perfx stat"
unit_stat_words()
{
	sed -n 's|^ExecStart=/usr/bin/perfx stat ||p' "$1"
}

unit_is_valid()
{
	unit_verify "$unit" || return 1
	local words
	words=$(unit_stat_words "$unit")
	[ -n "$words" ] || { echo "$unit: no ExecStart=/usr/bin/perfx stat"; return 1; }
	# shellcheck disable=SC2086
	perfx_stat_has $words
}

# expect_failure WANT CMD... - CMD fails, saying WANT
expect_failure()
{
	local want=$1 out

	shift
	if out=$("$@" 2>&1); then
		echo "$* passed"
		return 1
	fi
	grep -qF -- "$want" <<< "$out" || { echo "$out"; return 1; }
}

# the unit's checks must catch an option perfx lacks and a bad key
unit_checks_catch_mistakes()
{
	sed 's|--serve|--listen|' "$unit" > "$tmp/bad-opt.service"
	sed 's|^DynamicUser=|DynamicUzer=|' "$unit" > "$tmp/bad-key.service"
	# shellcheck disable=SC2046
	expect_failure "no option --listen" \
		perfx_stat_has $(unit_stat_words "$tmp/bad-opt.service") &&
		expect_failure "DynamicUzer" unit_verify "$tmp/bad-key.service"
}

# manifest_stat_words FILE - checks that FILE is a DaemonSet whose
# container runs perfx stat with the capabilities it needs and the host's
# cgroup2 mount; prints the words of the perfx stat command line
manifest_stat_words()
{
	python3 - "$1" <<'EOF'
import sys, yaml

docs = list(yaml.safe_load_all(open(sys.argv[1])))
assert len(docs) == 1, "one document"
ds = docs[0]
assert ds["kind"] == "DaemonSet", "kind is " + ds["kind"]
pod = ds["spec"]["template"]["spec"]
sel = ds["spec"]["selector"]["matchLabels"].items()
assert sel <= ds["spec"]["template"]["metadata"]["labels"].items(), "selector"
assert pod.get("hostPID"), "hostPID, for the host's cgroup namespace"
c = pod["containers"][0]
caps = set(c["securityContext"]["capabilities"]["add"])
assert {"PERFMON", "BPF"} <= caps, "capabilities %s" % caps
argv = c["command"] + c["args"]
if argv[0] == "nsenter":
    assert {"SYS_ADMIN", "SYS_PTRACE"} <= caps, "capabilities for nsenter: %s" % caps
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
paths = {v["name"]: v["hostPath"]["path"] for v in pod["volumes"]}
assert any(paths.get(n) == "/sys/fs/cgroup" == p for n, p in mounts.items()), \
    "the host's /sys/fs/cgroup mounted"
i = argv.index("/usr/bin/perfx")
assert argv[i + 1] == "stat", "perfx stat"
port = str(c["ports"][0]["containerPort"])
assert argv[argv.index("--serve") + 1].endswith(":" + port), "served on " + port
print(" ".join(argv[i + 2:]))
EOF
}

manifest_is_valid()
{
	local words

	words=$(manifest_stat_words "${1:-$manifest}") || return 1
	# shellcheck disable=SC2086
	perfx_stat_has $words
}

# key = value lines of settings /proc/sys has, the drop-in among the
# package's examples
sysctl_drop_in_is_valid()
{
	local conf=$deploy/perfx-sysctl.conf key value

	while IFS=' =' read -r key value; do
		[ -z "$key" ] || [[ $key = \#* ]] && continue
		[ -f "/proc/sys/${key//.//}" ] || { echo "no /proc/sys for $key"; return 1; }
		[[ $value =~ ^[0-9]+$ ]] || { echo "$key: '$value' is not a number"; return 1; }
	done < "$conf"
	grep -qx 'kernel.perf_event_paranoid = 2' "$conf" &&
		cmp -s "$conf" "$root/usr/share/doc/perfx/examples/perfx-sysctl.conf"
}

manifest_checks_catch_mistakes()
{
	sed 's|^\( *\)- -a$|\1- --all-cgroups|' "$manifest" > "$tmp/bad-opt.yaml"
	sed 's|add: \[PERFMON, BPF|add: [SYS_PTRACE, BPF|' "$manifest" > "$tmp/bad-cap.yaml"
	sed 's|, SYS_PTRACE\]|]|' "$manifest" > "$tmp/no-ptrace.yaml"
	expect_failure "no option --all-cgroups" manifest_is_valid "$tmp/bad-opt.yaml" &&
		expect_failure "capabilities" manifest_stat_words "$tmp/bad-cap.yaml" &&
		expect_failure "capabilities for nsenter" manifest_stat_words "$tmp/no-ptrace.yaml"
}

t "perfx-deb builds the package" package_builds
deb=$(ls "$tmp"/deb/perfx_*.deb 2>/dev/null)
t "lintian: no error, no warning" package_is_lintian_clean
t "apt resolves its Depends" package_depends_resolve
t "dpkg installs it into a scratch root" package_installs_into_scratch_root
t "the installed perfx --version is the package's" installed_perfx_runs
t "every man page is installed and renders" installed_man_pages_render
t "perfx help stat opens the installed man page" help_opens_man_page "$root/usr/bin/perfx"
t "perfx help stat shows usage where no page is installed" help_without_page_shows_usage
t "make install honours PREFIX and DESTDIR" make_install_honours_prefix_and_destdir
t "the systemd unit verifies and names only perfx's options" unit_is_valid
t "a unit with a bad option or key fails those checks" unit_checks_catch_mistakes
t "the DaemonSet parses and names only perfx's options" manifest_is_valid
t "a manifest with a bad option or capability fails those checks" manifest_checks_catch_mistakes
t "the sysctl drop-in sets a setting this kernel has, and is installed" sysctl_drop_in_is_valid

tap_summary package
