# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: /lib/modules holds only $1
check_step() {
	_left=$(ls /lib/modules)
	[ "$_left" = "$1" ] || {
		echo "/lib/modules holds: $(echo "$_left" | tr '\n' ' ')"
		return 1
	}
}
