# SPDX-License-Identifier: GPL-2.0
# The front door of the probes series. See README.md.
#
#   make run      install, build, boot, and walk through the seed examples
#   make shell    boot the same kernel to an interactive guest shell
#   make check    the tests, then bpftrace and libbpf-tools, on every guest; ends with "N passed, N failed, N skipped"
#   make tests TESTS=bpf,optprobes   only those of the project's guest tests, on GUEST (TESTS_TIMEOUT, 1200 s)
#   make check-clang  make check's arm64 guest built with clang-19 (clangroot.sh): BTI, kCFI, SCS
#   make check-clients  bpftrace, perf (and its own probe tests), libbpf-tools on trixie, both kernels
#   make check-gcs  the gcs and uprobes tests on the arm64 guest under newqemu.sh's QEMU 11.1 (GCS, MOPS)
#   make kernel   build only; prints the path of the Image
#   make series   write the series as format-patch files against the base
#   make acceptance  the share of instruction offsets a kernel can probe
#   make compare  the same definitions on upstream and the series, compared
#   make fuzz     10,000 random definitions into the series kernel, kmemleak on
#   make bench    probe costs under QEMU -icount, upstream and series side by side
#   make profile  one probe hit of each bench kind stepped in gdb, by function
#   make profile-attach  arm64: a kprobe perf event's open and an enable file's write stepped in gdb
#   make arches   build the probe code for every architecture, W=1, both kernels
#   make matrix   the same for arm64's configurations: 16K/64K pages, BE, KVM...
#   make clean    drop this kernel's build directory (base and ccache stay)
#
# KERNEL=series (the default) or KERNEL=upstream (the pristine base with the
# same config), for side-by-side comparisons. GUEST=arm64 (the default) or
# x86_64: the guest the one-kernel targets build and boot; `make check`
# runs every guest in GUESTS (default "arm64 x86_64"). TOOLCHAIN=gcc (the
# default) or clang: every target builds its kernels with that compiler.
# FLAVOR=debug (KASAN, KFENCE, lockdep, UBSAN, kmemleak), rt (PREEMPT_RT),
# defconfig (the architecture's defconfig under the harness's fragments)
# dump (PROBE_EVENTS_DUMP_FETCHARG: `FLAVOR=dump make compare` holds
# each argument's fetch program against 7.3's) or distro (no preemption or
# irqs-off tracer, as distributions build: `FLAVOR=distro make bench`):
# the configuration over the ordinary one, in its own tree.

KERNEL ?= series
H := tools/testing/probes
GUEST ?= arm64
TOOLCHAIN ?= gcc
FLAVOR ?=
# How long `make tests`' guest may run: a debug kernel needs more.
TESTS_TIMEOUT ?= 1200
export KERNEL GUEST TOOLCHAIN FLAVOR

.PHONY: all setup kernel initramfs run shell check check-clang check-debug check-defconfig check-rt check-smp check-clients check-gcs tests arches matrix series bisect acceptance compare fuzz bench profile profile-attach clean
all: check

setup:
	@$(H)/build/setup.sh

kernel: setup
	@$(H)/build/assemble.sh
	@$(H)/build/build.sh
	@bash -c '. $(H)/settings.sh && echo "$$SRC/$$IMAGE"'

initramfs: kernel
	@$(H)/build/initramfs.sh

run: initramfs
	@$(H)/guest/boot.sh walkthrough 900

shell: initramfs
	@$(H)/guest/boot.sh shell

check: setup
	@$(H)/targets/check.sh

check-clang:
	@$(MAKE) --no-print-directory check TOOLCHAIN=clang GUESTS=arm64

# The debug kernel runs the guest's suites about eight times slower than
# the ordinary one: two hours on a machine of CI's class, so its limit is
# twice that.
check-debug:
	@$(MAKE) --no-print-directory check FLAVOR=debug GUESTS=arm64 CHECK_TIMEOUT=14400

check-defconfig:
	@$(MAKE) --no-print-directory check FLAVOR=defconfig GUESTS=arm64 CHECK_TIMEOUT=7200

check-rt:
	@$(MAKE) --no-print-directory check FLAVOR=rt GUESTS=arm64

check-clients: setup
	@$(H)/tests/clients/clients.sh

check-gcs: setup
	@q=$$($(H)/build/newqemu.sh) && QEMU_AARCH64=$$q $(MAKE) --no-print-directory tests GUEST=arm64 TESTS=gcs,uprobes

check-smp:
	@$(MAKE) --no-print-directory tests SMP=4 TESTS=stress,optprobes,bpf

tests: initramfs
	@BOOT_ARGS="tests=$(TESTS)" $(H)/guest/boot.sh tests $(TESTS_TIMEOUT)
	@$(H)/report.py $(GUEST) $(KERNEL) $$(bash -c '. $(H)/settings.sh && echo $$LOGS')/tests.results

arches: setup
	@$(H)/targets/arches.sh

matrix: setup
	@ARCHES=matrix $(H)/targets/arches.sh

acceptance: initramfs
	@$(H)/measure/acceptance/acceptance.sh

bench: setup
	@$(H)/measure/bench/bench.sh

profile: initramfs
	@$(H)/measure/profile/profile.sh

profile-attach: initramfs
	@$(H)/measure/profile/profile.sh attach

fuzz: initramfs
	@$(H)/measure/fuzz/fuzz.sh

compare: setup
	@$(H)/measure/compare/compare.sh

series: setup
	@series/series.sh

bisect: setup
	@$(H)/targets/bisect.sh

clean:
	rm -rf build/$(GUEST)/$(KERNEL)$(if $(filter clang,$(TOOLCHAIN)),-clang)$(if $(FLAVOR),-$(FLAVOR))
