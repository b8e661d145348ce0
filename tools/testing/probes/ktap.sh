# SPDX-License-Identifier: GPL-2.0
# KTAP (Documentation/dev-tools/ktap.rst) for what reports on the host
# (its tests, settings.sh's verdicts), without the kernel's tree at hand: one
# document per suite between "@ktap SUITE" and "@endktap", the form
# report.py reads and guest/lib.sh writes with kselftest's helpers.
# Sourced.

ktap_begin() { # suite
	ktap_no=0
	printf '@ktap %s\nKTAP version 1\n' "$1"
}

ktap_result() { # PASS|FAIL name
	ktap_no=$((ktap_no + 1))
	if [ "$1" = PASS ]; then
		printf 'ok %d %s\n' "$ktap_no" "$2"
	else
		printf 'not ok %d %s\n' "$ktap_no" "$2"
	fi
}

ktap_end() {
	printf '1..%d\n@endktap\n' "$ktap_no"
}
