#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the results a guest job reported and print the summary.

usage: report.py [--no-total] GUEST KERNEL RESULTS [EXTRA...]

GUEST is the guest's architecture (arm64, x86_64), or "host" for the tests
that run on the host alone.

RESULTS is what the guest wrote on hvc0 (see targets/check-guest.sh); each
EXTRA is a file of the host's own results (its tests, the boot itself).
Both hold KTAP documents, one per suite (see parse()). A test passes when
it reports PASS (or XFAIL, a failure its own test expects). Any other
status is a failure unless the expectations file lists that exact status
for that test on this guest and kernel, with the measured reason; then it
counts as skipped and the reason is printed.
The last line is "N passed, N failed, N skipped"; the exit status is 1 when
anything failed.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LOG_LINES = 200


def load_expectations(guest, kernel):
    """Map (suite, test) to (status, reason) for this guest and kernel.

    The KERNELS field is all, upstream or series, for every build, or
    WHERE:KERNELS for some alone: WHERE is a guest (arm64, x86_64), a
    toolchain (gcc, clang: $TOOLCHAIN) or a flavour (debug, rt: $FLAVOR),
    or several of them joined by "+" (x86_64+clang), all of which hold.
    Where several lines name a test, the one that names more of where it
    holds wins (defconfig:all, for a build without BTF, over upstream),
    and of those the last."""
    here = {guest, os.environ.get("TOOLCHAIN") or "gcc"}
    if os.environ.get("FLAVOR"):
        here.add(os.environ["FLAVOR"])
    expected = {}
    narrowness = {}
    with open(os.path.join(HERE, "expected")) as f:
        for lineno, line in enumerate(f, 1):
            line = "" if line.lstrip().startswith("#") else line.strip()
            if not line:
                continue
            fields = line.split(None, 4)
            if len(fields) < 5:
                sys.exit(f"expected:{lineno}: want SUITE TEST KERNELS STATUS REASON")
            suite, test, kernels, status, reason = fields
            where, _, kernels = kernels.rpartition(":")
            if where and not set(where.split("+")) <= here:
                continue
            narrow = len(where.split("+")) if where else 0
            if kernels in ("all", kernel) and \
                    narrow >= narrowness.get((suite, test), 0):
                expected[(suite, test)] = (status, reason)
                narrowness[(suite, test)] = narrow
    return expected


KTAP_LINE = re.compile(r"^(\s*)(ok|not ok) \d+ (?:- )?(.*?)(?:\s+#\s*(.*))?$")


# The statuses that are neither a pass nor a failure nor a plain skip, which
# a directive names: ftracetest's, and the harness's NOTRUN (a test the
# host said not to run) and LOST (one whose result was never found).
STATUSES = {"UNSUPPORTED", "UNTESTED", "UNRESOLVED", "UNDEFINED", "NOTRUN", "LOST"}


def ktap_status(ok, directive):
    """A KTAP line's status: PASS or FAIL, else the word its directive gives.

    "# SKIP" alone is SKIP; "# SKIP WORD" (guest/lib.sh's result for a status
    of ftracetest's, UNSUPPORTED, or the harness's NOTRUN) is WORD, as is
    the directive of a test that is not ok (UNRESOLVED); "# XFAIL" is
    XFAIL. KUnit's and ftracetest's own documents use the same forms."""
    words = (directive or "").split()
    if words[:1] == ["SKIP"]:
        return words[1] if len(words) > 1 and words[1] in STATUSES else "SKIP"
    if words[:1] == ["XFAIL"] and ok == "ok":
        return "XFAIL"
    if ok == "ok":
        return "PASS"
    return words[0] if words and words[0] in STATUSES else "FAIL"


def parse_ktap(suite, lines, results):
    """Turn a KTAP document into results: SUITE/SUBSUITE.CASE for nested cases."""
    pending = []
    seen = False
    for line in lines:
        m = KTAP_LINE.match(line)
        if not m:
            continue
        indent, ok, name, directive = m.groups()
        status = ktap_status(ok, directive)
        if indent:
            pending.append((name.strip(), status))
            continue
        seen = True
        if not pending:
            results.append((suite, status, name.strip()))
        for case, cstatus in pending:
            results.append((suite, cstatus, f"{name.strip()}.{case}"))
        pending = []
    if not seen:
        results.append((suite, "FAIL", "ktap-output"))


def parse(path, results, logs):
    """Read a results file: KTAP documents, each between "@ktap SUITE" and
    "@endktap", and logs, each between "@log SUITE NAME" and "@endlog". A
    document left open (its job stopped, or a subshell reported) ends at
    the next "@ktap" or at the guest's own last lines ("harness: ...")."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return
    suite, body = None, []

    def close():
        nonlocal suite, body
        if suite is not None:
            parse_ktap(suite, body, results)
        suite, body = None, []

    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("@log "):
            parts = line.split(None, 2)
            log = []
            while i < len(lines) and lines[i] != "@endlog":
                log.append(lines[i])
                i += 1
            i += 1
            logs[(parts[1], parts[2] if len(parts) > 2 else "")] = log
        elif line.startswith("@ktap "):
            close()
            suite = line.split(None, 1)[1].strip()
        elif line == "@endktap" or line.startswith("harness: "):
            close()
        elif line.startswith("@"):
            continue  # the harness's other lines (@time...), for others
        elif suite is not None:
            body.append(line)
    close()


def main():
    args = sys.argv[1:]
    no_total = args[:1] == ["--no-total"]
    if no_total:
        args = args[1:]
    guest, kernel, files = args[0], args[1], args[2:]
    expected = load_expectations(guest, kernel)
    results, logs = [], {}
    for path in files:
        parse(path, results, logs)

    counts = {}
    order = []
    failed_logs = []
    for suite, status, name in results:
        if suite not in counts:
            counts[suite] = [0, 0, 0]
            order.append(suite)
        want = expected.pop((suite, name), None)
        if status in ("PASS", "XFAIL"):
            verdict, note = "pass", ""
            if want:
                note = f"  (listed as {want[0]}: the entry is stale)"
        elif want and want[0] == status:
            verdict, note = "skip", f"  ({status}, expected: {want[1]})"
        else:
            verdict, note = "FAIL", f"  ({status})"
            failed_logs.append((suite, name))
        idx = {"pass": 0, "FAIL": 1, "skip": 2}[verdict]
        counts[suite][idx] += 1
        print(f"{verdict:4} {guest} {suite}: {name}{note}")

    for (suite, name), (status, reason) in sorted(expected.items()):
        if suite in counts:
            print(f"note {guest} {suite}: {name} is listed as {status} but did not run")

    printed = set()
    for suite, name in failed_logs:
        # A test's own log, or else the logs its suite kept (a KUnit
        # module's kernel log, say).
        keys = [(suite, name)] if (suite, name) in logs else \
            [k for k in logs if k[0] == suite]
        for key in keys:
            if key in printed:
                continue
            printed.add(key)
            body = logs[key]
            print(f"---- log of {key[0]}: {key[1]} ----")
            for line in body[:LOG_LINES]:
                print(line)
            if len(body) > LOG_LINES:
                print(f"... {len(body) - LOG_LINES} more lines")
            print("----")

    total = [0, 0, 0]
    for suite in order:
        p, f, s = counts[suite]
        total = [total[0] + p, total[1] + f, total[2] + s]
        print(f"suite {guest} {suite}: {p} passed, {f} failed, {s} skipped")
    if not results:
        total[1] += 1
        print("no test reported a result")
    summary = f"{total[0]} passed, {total[1]} failed, {total[2]} skipped"
    print(f"{guest} {kernel}: {summary}" if no_total else summary)
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
