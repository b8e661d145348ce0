#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where each vCPU of a guest that stopped making progress is.

    vcpus.py QMP_SOCKET SYSTEM_MAP [ROUNDS]

Asks QEMU, over its QMP socket, for every vCPU's registers ROUNDS times
(3 by default), a second apart, and prints each vCPU's program counter,
link register or stack pointer with the kernel symbol it falls in (from
SYSTEM_MAP; an arm64 kernel relocated by KASLR prints raw addresses),
with jiffies each time: a guest whose time stopped waits on every timer.
A guest whose console stays silent past its time limit has usually
stopped with its interrupts masked: no lockup detector can report it,
and this is all that is left to tell where.
"""

import bisect
import json
import re
import socket
import sys
import time


class Symbols:
    """The text symbols of a System.map, and the address of jiffies_64
    (0 where the map has none)."""

    def __init__(self, path):
        syms = []
        self.jiffies = 0
        try:
            with open(path) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) < 3:
                        continue
                    if parts[1] in "tTwW":
                        syms.append((int(parts[0], 16), parts[2]))
                    elif parts[2] == "jiffies_64":
                        self.jiffies = int(parts[0], 16)
        except OSError:
            pass
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]
        # Kernel text ends at _etext; what follows is init text and data.
        self.text_end = next((a for a, n in syms if n == "_etext"),
                             self.addrs[-1] if syms else 0)

    def name(self, addr):
        """sym+0xoff for an address in the kernel's text, else None."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0 or addr >= self.text_end:
            return None
        return "%s+0x%x" % (self.names[i], addr - self.addrs[i])

    def show(self, addr):
        """The address, and its sym+0xoff where it has one."""
        name = self.name(addr)
        return "0x%x %s" % (addr, name) if name else "0x%x" % addr


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.f = self.sock.makefile("rw")
        self.f.readline()  # the greeting
        self.call("qmp_capabilities")

    def call(self, cmd, **args):
        self.f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            reply = json.loads(self.f.readline())
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(reply["error"].get("desc", "error"))

    def hmp(self, line):
        return self.call("human-monitor-command", **{"command-line": line})


# x86_64's "RIP=...", arm64's "PC=...", each with the registers that
# come closest to a caller without a stack walk.
REGS = ("RIP", "PC", "X30", "RSP", "SP")
# How much of each stack the last round scans for return addresses.
STACK_WORDS = 128


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    syms = Symbols(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    qmp = Qmp(sys.argv[1])
    for r in range(rounds):
        if r:
            time.sleep(1)
        # Whether the guest's time still runs: jiffies_64 a second apart
        # (an arm64 kernel moved by KASLR has it elsewhere: no value).
        if syms.jiffies:
            m = re.search(r":\s*0x([0-9a-f]+)", qmp.hmp("x /1gx 0x%x" % syms.jiffies))
            print("round %d jiffies: %s" % (r, int(m.group(1), 16) if m else "unreadable"))
        # "info registers -a" starts each vCPU with "CPU#N".
        text = qmp.hmp("info registers -a")
        for block in re.split(r"(?m)^(?=CPU#)", text):
            m = re.match(r"CPU#(\d+)", block)
            if not m:
                continue
            out = []
            for reg in REGS:
                v = re.search(r"\b%s=([0-9a-fA-F]+)" % reg, block)
                if v:
                    addr = int(v.group(1), 16)
                    shown = syms.show(addr) if reg in ("RIP", "PC", "X30") else "0x%x" % addr
                    out.append("%s=%s" % (reg, shown))
            halted = re.search(r"\bHLT=(\d)", block)
            if halted:
                out.append("HLT=" + halted.group(1))
            eflags = re.search(r"\bRFL=([0-9a-fA-F]+)", block)
            if eflags:
                out.append("IF=%d" % ((int(eflags.group(1), 16) >> 9) & 1))
            print("round %d cpu %s: %s" % (r, m.group(1), " ".join(out)))
            if r == rounds - 1:
                stack_scan(qmp, syms, m.group(1), block)


def stack_scan(qmp, syms, cpu, block):
    """The kernel text addresses on the top of a vCPU's stack, innermost
    first: the callers, with stale return addresses among them, as an
    unreliable backtrace has them."""
    sp = re.search(r"\b(?:RSP|SP)=([0-9a-fA-F]+)", block)
    if not sp:
        return
    qmp.hmp("cpu %s" % cpu)
    words = []
    for line in qmp.hmp("x /%dgx 0x%s" % (STACK_WORDS, sp.group(1))).splitlines():
        words += [int(w, 16) for w in re.findall(r"0x([0-9a-f]{16})", line.split(":", 1)[-1])]
    found = [n for n in map(syms.name, words) if n]
    print("  cpu %s stack: %s" % (cpu, " ".join(found[:24]) or "(no text address)"))


if __name__ == "__main__":
    main()
