#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# testbed.sh [-c CONFIG] - host-side tests of the test bed scripts.
#
# kernel-source and series-export run against a tiny fake source tarball
# so they can be broken on purpose; scripts/vm boots the real kernel.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
config=debug
[ "${1:-}" = -c ] && config=$2

tmp=$(mktemp -d)
# the guest reads its run directory over the repository share
vmbuild=$top/build/testbed-vm
trap 'rm -rf "$tmp" "$vmbuild"' EXIT
. "$top/scripts/tests/tap.sh"

# a fake linux-source tarball and a series with one good patch
make_fixture()
{
	local src=$tmp/linux-source-6.12 scratch=$tmp/scratch

	mkdir -p "$src" "$tmp/patches"
	printf 'kernelversion:\n\t@echo 6.12.0\n' > "$src/Makefile"
	printf 'int a;\nint b;\nint c;\n' > "$src/file.c"
	tar -C "$tmp" -cJf "$tmp/fake.tar.xz" linux-source-6.12
	cp -r "$src" "$scratch"
	(
		cd "$scratch" && git init -q && git add -A && git commit -qm base &&
		sed -i 's/int b;/int b = 1;/' file.c &&
		git commit -qam "file: initialise b" -m "Because." &&
		git format-patch -q --zero-commit --no-signature --numbered \
			-o "$tmp/patches" HEAD~1
	) || return 1
	echo 0001-file-initialise-b.patch > "$tmp/patches/series"
	sed 's/int b = 1;/int b = 2;/; s/^ int c;/ int d;/; s/initialise b/break it/' \
		"$tmp/patches/0001-file-initialise-b.patch" > "$tmp/patches/0002-broken.patch"
}

ks()
{
	BUILD=$tmp/build PERFX_PATCHES=$tmp/patches LINUX_TARBALL=$tmp/fake.tar.xz \
		"$top/scripts/kernel-source" "$@"
}

tree()
{
	git -C "$tmp/build/linux" "$@"
}

source_applies_series()
{
	ks || return 1
	grep -q 'int b = 1;' "$tmp/build/linux/file.c" || return 1
	[ "$(tree log --format=%s -1)" = "file: initialise b" ]
}

source_is_idempotent()
{
	local before

	before=$(tree rev-parse HEAD)
	ks || return 1
	[ "$(tree rev-parse HEAD)" = "$before" ]
}

broken_patch_is_named_and_rolled_back()
{
	local out

	echo 0002-broken.patch >> "$tmp/patches/series"
	if out=$(ks 2>&1); then
		echo "kernel-source succeeded with a broken patch"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -q '0002-broken.patch does not apply' || return 1
	[ "$(tree rev-parse HEAD)" = "$(tree rev-parse perfx-base)" ] || return 1
	[ -z "$(tree status --porcelain)" ] || return 1
	sed -i '/0002-broken.patch/d' "$tmp/patches/series"
	rm "$tmp/patches/0002-broken.patch"
	ks
}

missing_series_entry_is_named()
{
	local out

	echo 0003-missing.patch >> "$tmp/patches/series"
	out=$(ks 2>&1) && return 1
	sed -i '/0003-missing.patch/d' "$tmp/patches/series"
	echo "$out" | grep -q "names '0003-missing.patch', which does not exist"
}

local_changes_are_kept()
{
	local out head

	echo 'int e;' >> "$tmp/build/linux/file.c"
	tree commit -qam "file: add e" || return 1
	head=$(tree rev-parse HEAD)
	ks || return 1
	[ "$(tree rev-parse HEAD)" = "$head" ] || return 1
	# a changed series must not reset a tree with local commits
	echo "# comment" >> "$tmp/patches/series"
	out=$(ks 2>&1) && { echo "reset a tree with local commits"; return 1; }
	echo "$out" | grep -q 'has local changes' || return 1
	[ "$(tree rev-parse HEAD)" = "$head" ]
}

export_round_trip_has_no_churn()
{
	local before after

	sed -i '/^# comment$/d' "$tmp/patches/series"
	tree reset -q --hard HEAD~1 || return 1
	before=$(cd "$tmp/patches" && sha256sum * | sha256sum)
	BUILD=$tmp/build PERFX_PATCHES=$tmp/patches "$top/scripts/series-export" || return 1
	after=$(cd "$tmp/patches" && sha256sum * | sha256sum)
	[ "$before" = "$after" ] || { (cd "$tmp/patches" && ls -l); return 1; }
	# and a new commit comes out as 0002
	echo 'int e;' >> "$tmp/build/linux/file.c"
	tree commit -qam "file: add e" || return 1
	BUILD=$tmp/build PERFX_PATCHES=$tmp/patches "$top/scripts/series-export" || return 1
	[ "$(cat "$tmp/patches/series")" = "$(printf '%s\n' 0001-file-initialise-b.patch 0002-file-add-e.patch)" ]
}

# two series directories: the first gets as many commits as its series
# names, the last the rest; notes below a patch's "---" survive; make
# source applies both, in order
two_series_export_and_apply()
{
	local two=$tmp/two subjects before

	mkdir -p "$two/dep" "$two/main"
	sed '0,/^---$/s//---\nA note for the reviewer.\n---/' \
		"$tmp/patches/0001-file-initialise-b.patch" > "$two/dep/0001-file-initialise-b.patch"
	echo 0001-file-initialise-b.patch > "$two/dep/series"
	: > "$two/main/series"
	BUILD=$tmp/build PERFX_PATCHES=$two/main PERFX_SERIES_DIRS="$two/dep $two/main" \
		"$top/scripts/series-export" || return 1
	grep -q '^Subject: \[PATCH 1/1\] file: initialise b$' "$two/dep/0001-file-initialise-b.patch" &&
		grep -qx 'A note for the reviewer.' "$two/dep/0001-file-initialise-b.patch" || return 1
	[ "$(cat "$two/main/series")" = 0001-file-add-e.patch ] || return 1
	before=$(cd "$two" && sha256sum */* | sha256sum)
	BUILD=$tmp/build PERFX_PATCHES=$two/main PERFX_SERIES_DIRS="$two/dep $two/main" \
		"$top/scripts/series-export" || return 1
	[ "$(cd "$two" && sha256sum */* | sha256sum)" = "$before" ] ||
		{ echo "the second export changed the files"; return 1; }
	grep -q '^Subject: \[PATCH 1/1\] file: add e$' "$two/main/0001-file-add-e.patch" || return 1
	rm -rf "$tmp/build2"
	BUILD=$tmp/build2 PERFX_PATCHES=$two/main PERFX_SERIES_DIRS="$two/dep $two/main" \
		LINUX_TARBALL=$tmp/fake.tar.xz "$top/scripts/kernel-source" || return 1
	subjects=$(git -C "$tmp/build2/linux" log --format=%s perfx-base..HEAD)
	[ "$subjects" = "$(printf '%s\n' 'file: add e' 'file: initialise b')" ] ||
		{ echo "$subjects"; return 1; }
}

bad_config_option_is_named()
{
	local out

	mkdir -p "$tmp/configs"
	cp "$top/kernel/configs/base.config" "$top/kernel/configs/base-x86_64.config" "$tmp/configs/"
	echo CONFIG_PERFX_NO_SUCH_OPTION=y >> "$tmp/configs/base.config"
	out=$(BUILD=$tmp/kb LINUX_SRC=$top/build/linux PERFX_CONFIGS=$tmp/configs \
		"$top/scripts/kernel-build" -c base 2>&1) && return 1
	echo "$out"
	echo "$out" | grep -q 'CONFIG_PERFX_NO_SUCH_OPTION=y' || return 1
	# base.config's architecture part comes with it
	cp "$top/kernel/configs/base.config" "$tmp/configs/"
	echo CONFIG_PERFX_NO_SUCH_X86_OPTION=y >> "$tmp/configs/base-x86_64.config"
	out=$(BUILD=$tmp/kb LINUX_SRC=$top/build/linux PERFX_CONFIGS=$tmp/configs \
		"$top/scripts/kernel-build" -c base 2>&1) && return 1
	echo "$out"
	echo "$out" | grep -q 'CONFIG_PERFX_NO_SUCH_X86_OPTION=y'
}

vm_passes_exit_status()
{
	"$top/scripts/vm" -c "$config" -- sh -c 'exit 3'
	[ $? -eq 3 ]
}

vm_reports_panic()
{
	local out rc log

	out=$("$top/scripts/vm" -c "$config" -- sh -c 'echo c > /proc/sysrq-trigger' 2>&1)
	rc=$?
	echo "$out"
	[ "$rc" -eq 125 ] || return 1
	echo "$out" | grep -q 'Kernel panic' || return 1
	log=$(echo "$out" | sed -n 's/.*kernel log: \(.*console.log\).*/\1/p' | head -n 1)
	[ -s "$top/$log" ]
}

vm_times_out_and_cleans_up()
{
	local out rc

	out=$("$top/scripts/vm" -c "$config" -t 20 -- sleep 600 2>&1)
	rc=$?
	echo "$out"
	[ "$rc" -eq 124 ] || return 1
	echo "$out" | grep -q 'timed out after 20s' || return 1
	! pgrep -f "perfx_run=$top/build/vm/" >/dev/null
}

vm_rejects_bad_input()
{
	local out

	out=$("$top/scripts/vm" --bogus 2>&1)
	[ $? -eq 2 ] && echo "$out" | grep -q "unknown option '--bogus'" || return 1
	out=$("$top/scripts/vm" -k "$tmp/nope" -- true 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q 'no kernel image' || return 1
	out=$(QEMU=$tmp/no-qemu "$top/scripts/vm" -c "$config" -- true 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q 'not found' || return 1
	out=$(QEMU=false "$top/scripts/vm" -c "$config" -- true 2>&1)
	[ $? -eq 125 ] && echo "$out" | grep -q 'QEMU failed to start' || return 1
	out=$("$top/scripts/vm" -s 3 -n 2 -- true 2>&1)
	[ $? -eq 2 ] && echo "$out" | grep -q 'cannot be split evenly' || return 1
	out=$("$top/scripts/vm" --arch sparc -- true 2>&1)
	[ $? -eq 2 ] && echo "$out" | grep -q "expects x86_64 or arm64, not 'sparc'" || return 1
	# named before anything is downloaded or built for it
	out=$("$top/scripts/vm" --arch arm64 -c nosuch -- true 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q "build it with 'scripts/kernel-build -a arm64 -c nosuch'"
}

kernel_build_rejects_bad_input()
{
	local out

	out=$("$top/scripts/kernel-build" -a sparc 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q "unknown architecture 'sparc' (expected x86_64 or arm64)" ||
		return 1
	out=$("$top/scripts/kernel-build" -a arm64 -c nope 2>&1)
	[ $? -eq 1 ] && echo "$out" | grep -q "unknown config 'nope'"
}

# fake_kvm MODE - a QEMU in $tmp/bin whose KVM opens but never runs guest
# code: "spin" everywhere, "probe-ok" everywhere but in vm-accel's probe
fake_kvm()
{
	local real

	real=$(command -v qemu-system-x86_64) || return 1
	mkdir -p "$tmp/bin"
	cat > "$tmp/bin/qemu-system-x86_64" <<FAKE
#!/bin/sh
case " \$* " in
*" kvm "*)
	case "\$*" in
	*isa-debug-exit*) [ "$1" = probe-ok ] && exit 85 ;;
	esac
	while :; do sleep 1; done ;;
esac
exec $real "\$@"
FAKE
	chmod +x "$tmp/bin/qemu-system-x86_64"
	: > "$tmp/kvm"
	printf 'processor\t: 0\nflags\t\t: fpu vme %s\n' "${2:-vmx}" > "$tmp/cpuinfo"
}

# with_fake_kvm CMD... - run CMD against the fake KVM, its own cache
with_fake_kvm()
{
	PATH=$tmp/bin:$PATH BUILD=$vmbuild PERFX_KVM_DEV=$tmp/kvm \
		PERFX_CPUINFO=$tmp/cpuinfo PERFX_VM_ACCEL= "$@"
}

kernel_image()
{
	echo "$top/build/kbuild-$config/arch/x86/boot/bzImage"
}

accel_probe_runs_guest_code()
{
	local out rc first

	fake_kvm spin || return 1
	rm -rf "$vmbuild"
	out=$(with_fake_kvm "$top/scripts/vm" -k "$(kernel_image)" -- true 2>&1)
	rc=$?
	echo "$out"
	first=$(echo "$out" | head -n 1)
	[ "$rc" -eq 0 ] || return 1
	[ "$first" = "vm: KVM: a probe guest ran no code in 5s; using TCG" ] || return 1
	# the answer is kept for the next run
	out=$(with_fake_kvm "$top/scripts/vm-accel")
	echo "$out"
	[ "$out" = "tcg KVM: a probe guest ran no code in 5s; using TCG (cached in build/testbed-vm/vm-accel)" ]
}

accel_needs_cpu_flags()
{
	local out

	fake_kvm probe-ok "svm" || return 1
	rm -rf "$vmbuild"
	out=$(with_fake_kvm "$top/scripts/vm-accel") || return 1
	[ "$out" = "kvm using KVM: a probe guest ran under $tmp/kvm" ] || return 1
	fake_kvm probe-ok "sse2" || return 1
	rm -rf "$vmbuild"
	out=$(with_fake_kvm "$top/scripts/vm-accel") || return 1
	[ "$out" = "tcg KVM: no vmx or svm flag in $tmp/cpuinfo; using TCG" ] || return 1
	out=$(with_fake_kvm env PERFX_VM_ACCEL=tcg "$top/scripts/vm-accel") || return 1
	[ "$out" = "tcg using TCG: forced (--accel or PERFX_VM_ACCEL)" ] || return 1
	out=$(with_fake_kvm "$top/scripts/vm" -A bogus -- true 2>&1)
	[ $? -eq 2 ] && echo "$out" | grep -q "expects kvm, tcg or auto, not 'bogus'"
}

hung_boot_is_reported()
{
	local out rc

	fake_kvm probe-ok || return 1
	rm -rf "$vmbuild"
	SECONDS=0
	out=$(with_fake_kvm "$top/scripts/vm" -k "$(kernel_image)" -b 5 -- true 2>&1)
	rc=$?
	echo "$out (${SECONDS}s)"
	[ "$rc" -eq 125 ] && [ "$SECONDS" -lt 60 ] || return 1
	echo "$out" | head -n 1 | grep -qx 'vm: using KVM: a probe guest ran under .*' || return 1
	echo "$out" | grep -q "hung boot: the kernel printed nothing in 5s under KVM; kernel log: .*/console.log" ||
		return 1
	echo "$out" | grep -q 'retry with --accel tcg' || return 1
	# the wrong answer is forgotten, and no QEMU is left behind
	[ ! -e "$vmbuild/vm-accel" ] || return 1
	! pgrep -f "perfx_run=$vmbuild/vm/" >/dev/null
}

build_progress_is_shown()
{
	local out want

	out=$(
		. "$top/scripts/lib.sh"
		PROG=kernel-build
		SECONDS=0
		for i in $(seq 1 20); do
			printf '  CC      obj%d.o\n  LD      ignored.o\n' "$i"
		done | build_progress "building debug" 20 2>&1
	)
	echo "$out"
	# a line when it starts and at each tenth, with the time it took
	echo "$out" | grep -qvE ', [0-9]+m[0-5][0-9]s elapsed$' && return 1
	want=$(echo "kernel-build: building debug: 1 of ~20 objects (5%)"
	       for p in 10 20 30 40 50 60 70 80 90 100; do
		       echo "kernel-build: building debug: $((p / 5)) of ~20 objects ($p%)"
	       done)
	[ "$(echo "$out" | sed 's/, [0-9]*m[0-9]*s elapsed$//')" = "$want" ] || return 1
	# without a total: the count when it starts, then once a minute
	out=$(. "$top/scripts/lib.sh"; PROG=kernel-build; SECONDS=0
	      printf '  CC      a.o\n  AS      b.o\n' | build_progress "building base" 0 2>&1)
	[ "${out%, *elapsed}" = "kernel-build: building base: 1 objects" ]
}

echo "TAP version 13"
echo "1..17"
make_fixture || { echo "Bail out! cannot make the fixture"; exit 1; }
t "kernel-source unpacks and applies the series" source_applies_series
t "kernel-source leaves an applied tree alone" source_is_idempotent
t "a broken patch is named and the tree rolled back" broken_patch_is_named_and_rolled_back
t "a series entry without a file is named" missing_series_entry_is_named
t "local commits in the tree are kept, never reset" local_changes_are_kept
t "series-export round trip rewrites nothing" export_round_trip_has_no_churn
t "two series: exported each to its own, notes kept, applied in order" two_series_export_and_apply
t "kernel-build names a config option that did not survive" bad_config_option_is_named
t "scripts/vm exits with the command's status" vm_passes_exit_status
t "scripts/vm reports a guest panic with its log" vm_reports_panic
t "scripts/vm times out and leaves no QEMU behind" vm_times_out_and_cleans_up
t "scripts/vm rejects bad input with one clear message" vm_rejects_bad_input
t "scripts/vm takes KVM only where a guest runs code under it" accel_probe_runs_guest_code
t "scripts/vm-accel looks at the CPU flags and can be forced" accel_needs_cpu_flags
t "scripts/vm reports a hung boot in bounded time" hung_boot_is_reported
t "kernel-build shows how far the build is" build_progress_is_shown
t "kernel-build rejects an unknown architecture or config" kernel_build_rejects_bad_input
tap_summary testbed
