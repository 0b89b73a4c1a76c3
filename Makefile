# SPDX-License-Identifier: GPL-2.0
# perfx: a shared-cgroup perf counting series for Linux 6.12 and its tools.
# `make help` lists the targets.

CONFIG ?= debug
export CONFIG
VM_ARGS ?=
KERNEL_IMAGE := build/kbuild-$(CONFIG)/arch/x86/boot/bzImage
HAVE_PERFX := $(wildcard tools/perfx/Makefile)

.PHONY: help deps source kernel perfx install deb perf selftests vm run check check-host \
	check-guest check-guest-inject check-arm64 perfx-arm64 series-export series-check series-mail v4-check bench bench-dims bench-icount bench-mem bench-holds bench-fleet stress clean \
	distclean

help:
	@echo 'make deps           install the Debian packages the project needs (as root)'
	@echo 'make source         unpack linux-source-6.12 into build/linux, apply kernel/patches'
	@echo 'make kernel         build the guest kernel (CONFIG=debug|base|kasan, default debug)'
	@echo 'make perfx          build tools/perfx/perfx'
	@echo 'make perfx-arm64    cross-build it for the arm64 guest: build/perfx-arm64/perfx'
	@echo 'make install        perfx and its man pages into $$(DESTDIR)$$(PREFIX)/bin and'
	@echo '                    share/man/man1 (PREFIX=/usr/local; Documentation/deploy.rst)'
	@echo 'make deb            the Debian package of perfx: build/deb/perfx_VERSION_ARCH.deb'
	@echo 'make perf           build the tree'"'"'s perf (build/linux/tools/perf, BPF skeletons)'
	@echo '                    into build/perf/perf (PERF_ARGS="VAR=VALUE ..." for its make)'
	@echo 'make selftests      build the kselftests in selftests/'
	@echo 'make vm             boot the guest with a shell (VM_ARGS="-s 4 ..." for scripts/vm)'
	@echo 'make run            the main job: build everything, run the example in the guest'
	@echo 'make check          every test: host tests, then the selftests in the guest;'
	@echo '                    ends with "check: N passed, N failed, N skipped"'
	@echo 'make check-guest-inject  perfx inject against the guest'"'"'s perf in the x86 guest'
	@echo '                    (15 minutes under TCG; not in make check: the host runs it whole)'
	@echo 'make check-arm64    only the arm64 guest'"'"'s part of make check: the selftests'
	@echo '                    and perfx against perf on QEMU'"'"'s emulated PMU'
	@echo '                    (scripts/vm --arch arm64 --icount shift=3)'
	@echo 'make series-export  write build/linux commits back into the series of kernel/'
	@echo 'make series-check   checkpatch --strict and a build of every prefix of the series,'
	@echo '                    and of the perf series without kernel/perf-fix'
	@echo '                    (SERIES_CHECK_ARGS=-o: only the objects each patch touches)'
	@echo 'make series-mail    the series as mails for git send-email in build/series-mail/,'
	@echo '                    signed off by git config user.name/user.email'
	@echo 'make v4-check       the selftests of the v4 review'"'"'s runtime items on the v4'
	@echo '                    series: each must fail there (scripts/v4-check)'
	@echo 'make bench          the cgroup overhead benchmark in the base guest, with plots,'
	@echo '                    the 32-vCPU scale run, and perf record --affinity/--aio'
	@echo '                    beside perfx in 2-node guests (bench/README.md)'
	@echo 'make bench-dims     that benchmark at K = 200 against 1, 8, 32 events and'
	@echo '                    1, 4, 16 levels of counted cgroups (bench/README.md)'
	@echo 'make bench-icount   the cost of a cgroup switch in instructions: arm64'
	@echo '                    kernels with and without the series under qemu -icount,'
	@echo '                    perfx'"'"'s BPF mode beside them in the arm64 guest, and a'
	@echo '                    round trip traced instruction by instruction'
	@echo 'make bench-mem      kernel memory of 8 events x K cgroups on every CPU of the'
	@echo '                    debug guest, K = 1000 and 65536 (bench/README.md)'
	@echo 'make bench-holds    how long the series holds a CPU context lock at 65536'
	@echo '                    cgroups, per path, in the debug guest (bench/README.md)'
	@echo 'make bench-fleet    perfx --serve --follow-cgroups on 1000 cgroups with churn,'
	@echo '                    scraped for 10 minutes in every mode (bench/README.md)'
	@echo 'make stress         the stress selftest and the ABI fuzzer together in the debug'
	@echo '                    and KASAN guests (DURATION=seconds, default 300;'
	@echo '                    STRESS_CONFIGS="debug kasan")'
	@echo 'make clean          remove build outputs but keep build/linux and the kernels'
	@echo 'make distclean      remove build/ entirely'
	@echo 'scripts/vm -- CMD   run CMD in the guest (scripts/vm --help)'

deps:
	@scripts/deps

source: deps
	@scripts/kernel-source

kernel: deps
	@scripts/kernel-build -c $(CONFIG)

perfx: deps
ifneq ($(HAVE_PERFX),)
	@$(MAKE) --no-print-directory -C tools/perfx
endif

# PREFIX and DESTDIR reach tools/perfx's make from the command line; no
# apt-get here (deps): that Makefile names asciidoctor where it is missing
install:
	@$(MAKE) --no-print-directory -C tools/perfx install

deb: deps
	@scripts/perfx-deb

# the 6.12 tree's perf, with the BPF skeletons Debian's perf 6.1 lacks
# (perf stat --bpf-counters); PERF_ARGS go to perf's make
perf: source
	@scripts/perf-build $(PERF_ARGS)

selftests: source
	@$(MAKE) --no-print-directory -C selftests all

vm: kernel selftests perfx
	@scripts/vm -c $(CONFIG) $(VM_ARGS)

run: kernel selftests perfx
	@scripts/run-example -c $(CONFIG)

check: deps
	@scripts/check -c $(CONFIG)

# perfx inject against the guest's perf, inject.sh's quick run: 866 s of
# the x86 guest's 1,604 s in make check, for a command that reads files
# whatever the kernel; the host's suite runs it whole against the same perf
check-guest-inject: kernel selftests perfx
	@scripts/vm -c $(CONFIG) -t 3600 -- tools/perfx/tests/guest/run inject

# the arm64 guest's part of `make check`: the selftests and perfx's
# hardware-event tests in the arm64 guest (scripts/vm --arch arm64), on
# QEMU's emulated Armv8 PMU, and the series' perf against perf 6.1 and
# perfx; its kernel, its root (scripts/guest-root), the selftests, perfx
# and perf cross-built first
check-arm64: deps source
	@scripts/kernel-build -a arm64 -c $(CONFIG)
	@$(MAKE) --no-print-directory -C selftests SELFTEST_ARCH=arm64 all
	@scripts/guest-root
	@$(MAKE) --no-print-directory perfx-arm64
	@scripts/perf-build -m -a arm64
	@scripts/tests/guest-arm64.sh -c $(CONFIG)

# perfx for the arm64 guest: build/perfx-arm64/perfx
perfx-arm64: deps
	@scripts/deps arm64
	@$(MAKE) --no-print-directory -C tools/perfx CC=aarch64-linux-gnu-gcc \
		OUT=$(CURDIR)/build/perfx-arm64

series-export:
	@scripts/series-export

# SERIES_CHECK_ARGS=-o: compile what each patch touches instead of linking
# every prefix (scripts/series-check -h)
series-check: deps
	@scripts/series-check $(SERIES_CHECK_ARGS)

# v5's selftests of the v4 review's runtime items, run on the v4 series:
# each must fail there (scripts/v4-check)
v4-check: deps selftests
	@scripts/v4-check

series-mail: source
	@scripts/series-mail

# benchmarks run on the non-debug kernel with BTF (btf: base + BTF): lockdep
# would dominate the costs, and perf's --bpf-counters column needs the BTF;
# record-numa runs at 2 x 2 and 2 x 8 vCPUs with the tools' default rings on
# tmpfs, then at 2 x 2 loaded (4 KiB rings written over virtio-9p) until
# the recorders lose records (not at 2 x 8: one such round did not end in
# 25 minutes under TCG; Documentation/benchmarks.rst)
bench: deps perfx perf bench-dims
	@scripts/kernel-build -c btf
	@scripts/vm -c btf -t 3000 -- bench/cgroup-overhead.sh -r 3 \
		-o bench/results/overhead-guest-latest.md \
		-p bench/results/overhead-guest-latest.svg
	@scripts/vm -c btf -t 3000 -- bench/cgroup-overhead.sh -r 3 -T \
		-o bench/results/overhead-guest-latest-threads.md \
		-p bench/results/overhead-guest-latest-threads.svg
	@scripts/vm -c btf -s 32 -m 4G -t 3000 -- bench/cgroup-scale.sh -k 200 \
		-o bench/results/scale-guest-latest-32cpu.md
	@scripts/vm -c btf -s 4 -n 2 -t 5400 -- bench/record-numa.sh -r 3 \
		-o bench/results/record-numa-guest-latest-2x2.md
	@scripts/vm -c btf -s 16 -n 2 -m 4G -t 5400 -- bench/record-numa.sh -r 3 \
		-o bench/results/record-numa-guest-latest-2x8.md
	@mkdir -p build/bench
	@scripts/vm -c btf -s 4 -n 2 -t 5400 -- bench/record-numa.sh -r 5 -m 1 \
		-d build/bench -o bench/results/record-numa-guest-latest-2x2-loaded.md

# the cover letter's scaling: K = 200 against the events counted (1, 8, 32)
# and the levels the counted cgroups occupy (1, 4, 16); perf-tree is the
# series' perf stat, built by scripts/perf-build -m
bench-dims: deps perfx
	@scripts/kernel-build -c btf
	@scripts/perf-build -m
	@for e in 1 8 32; do \
		scripts/vm -c btf -t 3000 -- bench/cgroup-overhead.sh -r 3 -k 200 -e $$e \
			-o bench/results/dims-guest-latest-e$$e.md || exit; \
	done
	@for d in 1 4 16; do \
		scripts/vm -c btf -t 3000 -- bench/cgroup-overhead.sh -r 3 -k 200 -d $$d \
			-o bench/results/dims-guest-latest-d$$d.md || exit; \
	done

build/bench/cgroup-share-mem: bench/cgroup-share-mem.c \
		selftests/perf_events/cgroup_share_util.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -Wno-unused-parameter -o $@ $<

ICOUNT_SRC = bench/cgroup-switch-icount.c
ICOUNT_DEPS = $(ICOUNT_SRC) selftests/perf_events/cgroup_share_util.h
build/bench/cgroup-switch-icount: $(ICOUNT_DEPS)
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -Wno-unused-parameter -o $@ $(ICOUNT_SRC)

build/bench/arm64/cgroup-switch-icount: $(ICOUNT_DEPS)
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
		-o $@ $(ICOUNT_SRC)

# the cost of a cgroup switch in instructions: arm64 kernels with and
# without the series under qemu -icount, perfx's BPF mode beside the
# kernel's modes in the full arm64 guest, and where a round trip's
# instructions go with plain counting and with the shared event
# (bench/cgroup-switch-icount.sh)
bench-icount:
	@bench/cgroup-switch-icount.sh -o bench/results/icount-arm64-latest.md
	@bench/cgroup-switch-icount.sh -B -o bench/results/icount-bpf-arm64-latest.md
	@for mode in plain shared; do \
		bench/cgroup-switch-icount.sh -t $$mode \
			-o bench/results/icount-trace-$$mode-latest.md || exit 1; \
	done

bench-mem: deps build/bench/cgroup-share-mem
	@scripts/kernel-build -c $(CONFIG)
	@scripts/vm -c $(CONFIG) -m 4G -t 3000 -- sh -c \
		'build/bench/cgroup-share-mem -k 1000 && build/bench/cgroup-share-mem -k 65536'

# a container host's perfx: 1000 cgroups x 8 events, 100 made and 100
# removed a minute, scraped every 5 s for 10 minutes, in every mode, on
# the base config (bench/fleet.sh)
bench-fleet: deps perfx
	@scripts/kernel-build -c base
	@scripts/vm -c base -m 4G -t 3000 -- bench/fleet.sh \
		-o bench/results/fleet-guest-latest.md

# the series' context lock holds at 65536 cgroups on a group of 8, on the
# debug config with a measurement-only patch (bench/lock-holds.sh)
bench-holds: deps
	@bench/lock-holds.sh -k 65536 -e 8 -o bench/results/lock-holds-guest-latest.md

DURATION ?= 300
STRESS_CONFIGS ?= debug kasan
stress: deps
	@scripts/stress -d $(DURATION) $(addprefix -c ,$(STRESS_CONFIGS))

clean:
	@$(MAKE) --no-print-directory -C selftests clean >/dev/null
ifneq ($(HAVE_PERFX),)
	@$(MAKE) --no-print-directory -C tools/perfx clean >/dev/null
endif
	rm -rf build/vm build/selftests build/check

distclean:
	rm -rf build
