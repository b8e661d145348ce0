# SPDX-License-Identifier: GPL-2.0
# Shared settings of the harness scripts; sourced, never run.

set -euo pipefail

HARNESS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=${TOP:-$(cd "$HARNESS/../../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
KERNEL=${KERNEL:-series}
BASE_TARBALL=${BASE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
BASE=$BUILD/base/linux
KDIR=$BUILD/$KERNEL
# Built in tree: with every path relative, objects hash the same in ccache
# for both kernels and for every clone of the project.
SRC=$KDIR/src
OBJ=$SRC
LOGS=$KDIR/logs
JOBS=${JOBS:-$(nproc)}

export ARCH=arm64
export CROSS_COMPILE=aarch64-linux-gnu-
# Reproducible objects, so that ccache hits across clones and kernels.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=probes
export KBUILD_BUILD_HOST=harness
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=true
export CCACHE_SLOPPINESS=time_macros
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

case $KERNEL in
series | upstream) ;;
*) echo "KERNEL must be series or upstream, not '$KERNEL'" >&2; exit 2 ;;
esac

say() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
