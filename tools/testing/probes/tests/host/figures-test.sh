#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every figure the cover letter and the commit messages quote
# (series/*.txt) must be one RESULTS.md has: RESULTS.md is where the
# figures live, and the messages quote it. Prints a KTAP document, suite
# "figures", a test per series/ file, named by the file; a failing one's
# log lists its figures that RESULTS.md lacks.
#
# A figure is a number, outside the Files:/Interim:/Patch: lines, that
#   - has a decimal point (a ratio, 0.41; a time, 0.089 s), or
#   - has a thousands comma (13,868), or
#   - is followed by a unit: s, ms, min, h, %, ×, B, KiB, MiB, GiB, MB,
#     GB, instructions, passed, failed, skipped, subtests, cases,
#     patches, probes, definitions, tests, or
#   - has three digits or more (a count: 422 definitions accepted), or
#   - stands in a table row (a line indented by two spaces, its columns
#     apart by two spaces or more) and has two digits or more.
# It is in RESULTS.md when that number, thousands commas dropped, is a
# number there; an integer under 100 with a unit of time, size, percent
# or patches must also have that unit there ("17 patches", "62 s").
# Not figures (the allow rule): dates (2026-11-27), hex (0xffff...),
# commit IDs (a Fixes: tag's 12 hex digits),
# dotted versions (7.3.4, 7.3.y), digits that are part of a name (x0,
# s8, u32, kmalloc-128, C4.1), a version after the name of what it
# versions (Linux 7.3, QEMU 7.2, Clang 19.1, bpftrace 0.23...), sizes in
# bytes (what the code defines: "104 bytes"), and ALLOW below: constants
# and example values, none of them measured.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../../.." && pwd)
# shellcheck source=../../ktap.sh
. "$here/../../ktap.sh"
ktap_begin figures

python3 - "$top/RESULTS.md" "$top"/series/*.txt <<'EOF'
import os
import re
import sys

ALLOW = {
    "128 MB",               # the reach of an A64 B: +/-128 MB
    "156", "65436",         # -100 printed by "%d" as an s8 and an s16
}
VERSIONED = r"(?:Linux|linux-source-|QEMU|Clang|clang|GCC|perf|bpftrace|libbpf-tools|stress-ng)"
UNITS = (r"(?:s|ms|min|h|%|×|B|KiB|MiB|GiB|MB|GB|instructions?|passed|failed|"
         r"skipped|subtests|cases|patches|probes|definitions|tests)")
STRICT_UNITS = {"s", "ms", "min", "h", "%", "B", "KiB", "MiB", "GiB", "MB", "GB", "patches"}
NUM = r"(?<![\w.,/])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)"


def clean(text):
    """Blank out what holds digits but is no figure."""
    text = re.sub(VERSIONED + r"\s?\d+(?:\.\d+)+", " ", text)
    text = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", " ", text)            # dates
    text = re.sub(r"\b0x[0-9a-fA-F]+\b", " ", text)               # hex
    text = re.sub(r"\b[0-9a-f]{12,40}\b", " ", text)              # commits
    text = re.sub(r"\b\d+(?:\.\d+){2,}\b|\b\d+\.\d+\.[a-z]\b", " ", text)
    text = re.sub(r"\b[A-Za-z_]\w*\d\w*(?:\.\d+)?", " ", text)    # names
    text = re.sub(r"\b[A-Za-z_]\w*-\d+\b", " ", text)            # kmalloc-128
    text = re.sub(r"\b\d+ bytes\b", " ", text)                    # sizes
    return text


def figures(text):
    for line in text.splitlines():
        if re.match(r"(Files|Interim|Patch):", line):
            continue
        table = line.startswith("  ") and re.search(r"\S {2,}\S", line)
        for m in re.finditer(NUM + r"(?:\s?(" + UNITS + r")(?!\w))?", clean(line)):
            num, unit = m.group(1), m.group(2)
            fig = num + (" " + unit if unit else "")
            if fig in ALLOW:
                continue
            if "," in num or "." in num or unit or len(num) >= 3 or \
                    (table and len(num) >= 2):
                yield fig, num.replace(",", ""), unit


results = clean(open(sys.argv[1]).read()).replace(",", "")
numbers = set(re.findall(r"(?<![\w./])(\d+(?:\.\d+)?)", results))
n = 0
for path in sys.argv[2:]:
    n += 1
    name = os.path.basename(path)
    missing = []
    for fig, num, unit in figures(open(path).read()):
        if num not in numbers:
            missing.append(fig)
        elif unit in STRICT_UNITS and "." not in num and int(num) < 100 and \
                not re.search(r"(?<![\w.])" + num + r"\s?" + re.escape(unit) + r"(?!\w)", results):
            missing.append(fig)
    if missing:
        print(f"not ok {n} {name}")
        print(f"@log figures {name}")
        print(f"{name}: figures RESULTS.md does not have:")
        for fig in dict.fromkeys(missing):
            print(f"  {fig}")
        print("@endlog")
    else:
        print(f"ok {n} {name}")
print(f"1..{n}")
EOF
echo "@endktap"
