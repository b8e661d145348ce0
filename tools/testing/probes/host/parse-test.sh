#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The probe-argument parser on the host, under the sanitizers: the cases
# of parse-cases.txt, then PARSE_FUZZ (200000) random and mutated
# arguments. Prints "@result parser STATUS NAME" lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The error codes' names, in the order of enum probe_error.
sed -n '/^enum probe_error {/,/^};/p' "$top/kernel/trace/trace_probe_prog.h" |
	grep -o 'TP_ERR_[A-Z0-9_]*' | grep -v '^TP_ERR_NR$' |
	sed 's/^TP_ERR_\(.*\)/\t"\1",/' |
	{ echo 'static const char *const err_names[] = {'; cat; echo '};'; } \
	>"$work/parse-errnames.h"

# The parser is built from a copy, so that its #include "trace_probe.h"
# finds shim/'s stand-in before the kernel's header beside it.
cp "$top/kernel/trace/trace_probe_parse.c" "$work/"

if ! gcc -g -O1 -Wall -Wno-unused-function -Wno-unused-parameter \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-include "$here/parse-shim.h" -I"$work" -I"$here" -I"$here/shim" -I"$top/kernel/trace" \
	-o "$work/parse" "$here/parse-test.c" 2>"$work/cc.log"; then
	echo "@result parser FAIL build"
	echo "@log parser build"; cat "$work/cc.log"; echo "@endlog"
	exit 0
fi
if ! "$work/parse" "$here/parse-cases.txt" "${PARSE_FUZZ:-200000}" \
	>"$work/out" 2>"$work/err"; then
	grep -q '@result parser FAIL' "$work/out" ||
		echo "@result parser FAIL sanitizers"
fi
cat "$work/out"
sed 's/^/# /' "$work/err" | grep '^# parser random:' || true
if grep -q 'ERROR: \|runtime error' "$work/err"; then
	echo "@log parser sanitizers"; head -60 "$work/err"; echo "@endlog"
fi
