#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Remake the series' Interim diffs after a change to files' last state.

    series/remake-interim.py [--rev REV] [--demote STEM] PATH...

An "Interim: PATH" line brings PATH to its last state (the series' file,
or upstream's with patches/PATH.patch) less series/STEM/PATH.diff.  When
the last state changes, each such diff must be made again so that the
patch keeps the state it had: here, each is applied to PATH's last state
at REV (default HEAD), and the state it gives is diffed against the last
state in the working tree.

--demote STEM: the patch STEM claimed PATH with "Files:" and a later one
now changes it: STEM's line becomes "Interim:", with the diff from the new
last state to the last state at REV.

Needs the pristine base the harness unpacks (build/base/linux, or $BASE).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERIES = os.path.join(TOP, "series")
BASE = os.environ.get("BASE", os.path.join(TOP, "build", "base", "linux"))


def git(*args, check=True):
    return subprocess.run(["git", "-C", TOP] + list(args), check=check,
                          capture_output=True).stdout


def patched(path, rev):
    """Whether the manifest at REV (None: the tree) has PATH patched."""
    text = (git("show", "%s:manifest" % rev).decode() if rev
            else open(os.path.join(TOP, "manifest")).read())
    return any(l.split()[:2] == [path, "patched"] for l in text.splitlines())


def apply(diff, text):
    """TEXT with the unified DIFF (a/PATH, b/PATH) applied."""
    with tempfile.TemporaryDirectory() as d:
        name = re.search(r"^\+\+\+ b/(\S+)", diff, re.M).group(1)
        os.makedirs(os.path.join(d, os.path.dirname(name)), exist_ok=True)
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        subprocess.run(["patch", "-s", "-p1", "-d", d, "--no-backup-if-mismatch",
                        "-r", "-"], input=diff.encode(), check=True)
        return open(os.path.join(d, name)).read()


def last_state(path, rev):
    """PATH's last state at REV (None: the working tree)."""
    if patched(path, rev):
        base = open(os.path.join(BASE, path)).read()
        p = "patches/%s.patch" % path
        diff = (git("show", "%s:%s" % (rev, p)).decode() if rev
                else open(os.path.join(TOP, p)).read())
        return apply(diff, base)
    if rev:
        return git("show", "%s:%s" % (rev, path)).decode()
    return open(os.path.join(TOP, path)).read()


def unified(path, old, new):
    """The diff that takes OLD to NEW, as series/ keeps them."""
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        open(a, "w").write(old)
        open(b, "w").write(new)
        out = subprocess.run(["diff", "-u", a, b], capture_output=True).stdout
    lines = out.decode().splitlines(True)
    if not lines:
        return ""
    lines[0] = "--- a/%s\n" % path
    lines[1] = "+++ b/%s\n" % path
    return "".join(lines)


def write_diff(stem, path, text):
    p = os.path.join(SERIES, stem, path + ".diff")
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--demote", action="append", default=[])
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    for path in args.paths:
        old, new = last_state(path, args.rev), last_state(path, None)
        for msg in sorted(os.listdir(SERIES)):
            if not re.match(r"\d{4}.*\.txt$", msg):
                continue
            stem = msg[:-4]
            text = open(os.path.join(SERIES, msg)).read()
            files = [l for l in text.splitlines() if l.startswith("Files:")]
            if stem in args.demote and any(path in l.split()[1:] for l in files):
                state = old
                out = []
                for l in text.splitlines():
                    w = l.split()
                    if l.startswith("Files:") and path in w[1:]:
                        w.remove(path)
                        l = " ".join(w) if len(w) > 1 else None
                    if l is not None:
                        out.append(l)
                if any(l.startswith("Interim:") for l in out):
                    out = [l + " " + path if l.startswith("Interim:") else l
                           for l in out]
                else:
                    out.append("Interim: " + path)
                open(os.path.join(SERIES, msg), "w").write("\n".join(out) + "\n")
                write_diff(stem, path, unified(path, new, state))
                print("%s: %s demoted to Interim" % (stem, path))
                continue
            if not any(l.startswith("Interim:") and path in l.split()[1:]
                       for l in text.splitlines()):
                continue
            dpath = os.path.join(SERIES, stem, path + ".diff")
            state = apply(open(dpath).read(), old)
            write_diff(stem, path, unified(path, new, state))
            print("%s: %s remade" % (stem, path))


if __name__ == "__main__":
    sys.exit(main())
