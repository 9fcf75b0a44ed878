# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1 is in state $2 (dpkg-query)
check_step() {
	pkg_is "$1" "$2"
}
