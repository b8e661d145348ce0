#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Check the probes decoder against decode-cases.txt: each case's assembly is
# assembled by binutils, decoded by decode.c built for the host, and its
# actions compared. Prints a KTAP document, suite "decoder", a test per
# case named by its assembly.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../../ktap.sh
. "$here/../../ktap.sh"
ktap_begin decoder

# The decoder's rows are asm/insn.h's classes: the base's header with the
# series' patch, beside shim/'s stand-ins for the kernel headers it needs.
base=${BUILD:-$top/build}/base/linux
mkdir -p "$work/include/asm"
if ! patch -s -f --fuzz=0 -o "$work/include/asm/insn.h" \
	"$base/arch/arm64/include/asm/insn.h" \
	"$top/patches/arch/arm64/include/asm/insn.h.patch" >"$work/cc.log" 2>&1 ||
   ! gcc -Wall -Wextra -Werror -include linux/compiler_types.h \
	-I"$here/shim" -I"$work/include" -I"$top/arch/arm64/kernel/probes" \
	-o "$work/decode" "$here/decode-test.c" 2>>"$work/cc.log"; then
	ktap_result FAIL build
	echo "@log decoder build"; cat "$work/cc.log"; echo "@endlog"
	ktap_end
	exit 0
fi

grep -v '^#' "$here/decode-cases.txt" | grep . >"$work/cases"
{
	echo '.arch armv8.8-a+memtag+sve+sme+ls64+tme+mops+pauth+aes'
	sed -E 's/^(\S+\s+){4}//' "$work/cases"
} >"$work/cases.s"
if ! aarch64-linux-gnu-as "$work/cases.s" -o "$work/cases.o" 2>"$work/as.log"; then
	ktap_result FAIL assemble
	echo "@log decoder assemble"; cat "$work/as.log"; echo "@endlog"
	ktap_end
	exit 0
fi
aarch64-linux-gnu-objcopy -O binary -j .text "$work/cases.o" "$work/cases.bin"
od -An -v -tx4 -w4 "$work/cases.bin" | "$work/decode" >"$work/decoded"

while read -r k u o fn insn dk du dd name dfn asm; do
	if [ "$k $u $o $fn" = "$dk $du $dd $dfn" ]; then
		ktap_result PASS "$asm"
	else
		ktap_result FAIL "$asm"
		echo "@log decoder $asm"
		echo "$insn: expected $k $u $o $fn, decoded $dk $du $dd $dfn (class $name)"
		echo "@endlog"
	fi
done < <(paste -d' ' <(awk '{print $1, $2, $3, $4}' "$work/cases") "$work/decoded" \
	<(sed -E 's/^(\S+\s+){4}//' "$work/cases"))
ktap_end
