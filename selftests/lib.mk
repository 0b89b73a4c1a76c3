# SPDX-License-Identifier: GPL-2.0
# Included by each test directory's Makefile after it sets:
#   TEST_GEN_PROGS  our kselftest-harness tests, one NAME.c each, built with
#                   -Wall -Wextra -Werror
#   UPSTREAM_PROGS  tests built from the unpacked tree's selftests directory
#                   of the same name (upstream code, upstream warnings)
#   NEEDS_HW_PMU    programs reported as SKIP when the running kernel has no
#                   'cpu' PMU (/sys/bus/event_source/devices/cpu): a real
#                   x86 one; under QEMU TCG they fail on x86 and arm64 alike
# Binaries go to build/selftests/DIR (build/selftests-arm64/DIR for arm64);
# `run_tests` runs them all as TAP.

SELFTESTS := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
TOP ?= $(abspath $(SELFTESTS)/..)
LINUX_SRC ?= $(TOP)/build/linux
KSFT := $(LINUX_SRC)/tools/testing/selftests
TARGET := $(notdir $(CURDIR))

# SELFTEST_ARCH=arm64 on an x86_64 host cross-builds for the arm64 guest
# (scripts/vm --arch arm64) into build/selftests-arm64, which is where the
# guest, an arm64 machine, finds them already built.
HOST_ARCH := $(shell uname -m)
SELFTEST_ARCH ?= $(if $(filter aarch64,$(HOST_ARCH)),arm64,$(HOST_ARCH))
ifeq ($(SELFTEST_ARCH),arm64)
OUTPUT ?= $(TOP)/build/selftests-arm64/$(TARGET)
ifneq ($(HOST_ARCH),aarch64)
CC := aarch64-linux-gnu-gcc
endif
endif
OUTPUT ?= $(TOP)/build/selftests/$(TARGET)

CC ?= gcc
# -I$(KSFT)/$(TARGET): the tests include "../kselftest_harness.h" as in the tree
CFLAGS += -O2 -g -I$(KSFT) -I$(KSFT)/$(TARGET) -I$(CURDIR)
LDLIBS += -lpthread
OUR_CFLAGS := -Wall -Wextra -Werror -Wno-unused-parameter

OUR := $(addprefix $(OUTPUT)/,$(TEST_GEN_PROGS))
UPSTREAM := $(addprefix $(OUTPUT)/,$(UPSTREAM_PROGS))

.DELETE_ON_ERROR:
.PHONY: all run_tests clean list
all: $(OUR) $(UPSTREAM)

$(KSFT)/kselftest_harness.h:
	@echo "selftests: $(LINUX_SRC) is not unpacked: run 'make source' first" >&2
	@exit 1

$(OUTPUT)/%: %.c $(wildcard *.h) $(KSFT)/kselftest_harness.h
	@mkdir -p $(OUTPUT)
	$(Q)$(CC) $(CFLAGS) $(OUR_CFLAGS) $(EXTRA_CFLAGS) -o $@ $< $(LDLIBS)

$(UPSTREAM): $(OUTPUT)/%: $(KSFT)/$(TARGET)/%.c $(KSFT)/kselftest_harness.h
	@mkdir -p $(OUTPUT)
	$(Q)$(CC) $(CFLAGS) -Wall -Wl,-no-as-needed -o $@ $< $(LDLIBS)

HW_PMU = $(wildcard /sys/bus/event_source/devices/cpu)

run_tests: all
	@SKIP_PROGS="$(if $(HW_PMU),,$(NEEDS_HW_PMU))" \
	SKIP_REASON="no 'cpu' PMU: QEMU TCG gives no exact instruction counts or data breakpoints" \
		$(SELFTESTS)/run_tests.sh $(TARGET) $(TEST_TIMEOUT) $(OUR) $(UPSTREAM)

list:
	@echo $(OUR) $(UPSTREAM)

clean:
	rm -rf $(OUTPUT)

ifeq ($(V),1)
Q :=
else
Q := @
endif
