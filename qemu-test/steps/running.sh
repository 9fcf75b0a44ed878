# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: running $1
check_step() {
	_running=$(uname -r)
	[ "$_running" = "$1" ] || {
		echo "uname -r says $_running, expected $1"
		return 1
	}
}
