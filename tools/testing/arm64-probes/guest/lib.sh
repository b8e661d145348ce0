# SPDX-License-Identifier: GPL-2.0
# Helpers of the guest jobs; sourced.

result() { # suite status name
	echo "@result $1 $2 $3" >&3
}

log_file() { # suite name file
	echo "@log $1 $2" >&3
	cat "$3" >&3
	echo "@endlog" >&3
}
