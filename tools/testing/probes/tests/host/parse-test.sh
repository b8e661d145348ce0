#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The probe-argument parser on the host, under the sanitizers: the cases
# of parse-cases.txt, then PARSE_FUZZ (200000) random and mutated
# arguments. Built twice, as the kernel is: with BTF arguments, on the
# fake BTF of btf-shim.c (KTAP suite "parser"), and without (suite
# "parser-nobtf"). PARSE_FUZZ_CODES=1 lists the error codes the fuzz
# reached.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../../ktap.sh
. "$here/../../ktap.sh"

# The error codes' names, in the order of enum probe_error.
sed -n '/^enum probe_error {/,/^};/p' "$top/kernel/trace/trace_probe_prog.h" |
	grep -o 'TP_ERR_[A-Z0-9_]*' | grep -v '^TP_ERR_NR$' |
	sed 's/^TP_ERR_\(.*\)/\t"\1",/' |
	{ echo 'static const char *const err_names[] = {'; cat; echo '};'; } \
	>"$work/parse-errnames.h"

# The parser is built from a copy, so that its #include "trace_probe.h"
# finds shim/'s stand-in before the kernel's header beside it.
cp "$top/kernel/trace/trace_probe_parse.c" "$work/"

# run_build SUITE [CFLAGS and sources...]: build one way and run it.
# Unoptimized: the sanitizers find as much, and the build is what takes
# the time here.
run_build() {
	local suite=$1 rc=0
	shift
	if ! gcc -g -O0 -Wall -Wno-unused-function -Wno-unused-parameter \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-include "$here/parse-shim.h" -I"$work" -I"$here" \
		-I"$here/shim" -I"$top/kernel/trace" -o "$work/$suite" \
		"$here/parse-test.c" "$@" 2>"$work/$suite.cc.log"; then
		ktap_begin "$suite"
		ktap_result FAIL build
		echo "@log $suite build"; cat "$work/$suite.cc.log"
		echo "@endlog"
		ktap_end
		return
	fi
	"$work/$suite" "$here/parse-cases.txt" "${PARSE_FUZZ:-200000}" \
		>"$work/$suite.out" 2>"$work/$suite.err" || rc=$?
	cat "$work/$suite.out"
	sed 's/^/# /' "$work/$suite.err" | grep "^# $suite random:" || true
	# Stopped by a sanitizer, or by btf-shim.c finding its table wrong
	# (abort()); a case or the fuzz failing exits with 1.
	if [ $rc -gt 1 ] ||
	   grep -q 'ERROR: \|runtime error' "$work/$suite.err" ||
	   { [ $rc -ne 0 ] &&
	     ! grep -q "^not ok " "$work/$suite.out"; }; then
		ktap_begin "$suite"
		ktap_result FAIL sanitizers
		echo "@log $suite sanitizers"; head -60 "$work/$suite.err"
		echo "@endlog"
		ktap_end
	fi
}
# The two ways at once, each into its file, printed in order after.
run_build parser -DCONFIG_PROBE_EVENTS_BTF_ARGS=1 "$here/btf-shim.c" \
	>"$work/parser.results" &
run_build parser-nobtf >"$work/parser-nobtf.results"
wait
cat "$work/parser.results" "$work/parser-nobtf.results"
