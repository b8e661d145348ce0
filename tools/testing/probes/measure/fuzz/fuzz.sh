#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make fuzz`: write FUZZ_N (10000) random and mutated definitions
# (fuzz.awk over fuzz.corpus, seed FUZZ_SEED) into the series kernel's
# tracefs files, booted with kmemleak on.  Fails on an oops, a warning, a
# lost event or a leak. FUZZ_TIMEOUT (1800 s) bounds the guest's run: the
# debug kernel needs more.
. "$(dirname "$0")/../../settings.sh"

BOOT_ARGS="kmemleak=on ${FUZZ_N:+fuzz_n=$FUZZ_N}" \
	"$HARNESS/guest/boot.sh" fuzz "${FUZZ_TIMEOUT:-1800}" >"$LOGS/fuzz.out" 2>&1 || {
	tail -30 "$LOGS/fuzz.out"
	die "the fuzz run failed"
}
tr -d '\r' <"$LOGS/fuzz.results" | sed -nE '/^fuzz: /p; /^(not )?ok /p'
! tr -d '\r' <"$LOGS/fuzz.results" | grep -q '^not ok '
