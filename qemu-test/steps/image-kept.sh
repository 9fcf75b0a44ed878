# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: linux-image-$1 is still installed, /boot and /lib/modules with it
check_step() {
	pkg_is "linux-image-$1" ii || return
	for _f in vmlinuz System.map config; do
		[ -s "/boot/$_f-$1" ] || {
			echo "/boot/$_f-$1 is gone"
			return 1
		}
	done
	[ -d "/lib/modules/$1/kernel" ] || {
		echo "/lib/modules/$1/kernel is gone"
		return 1
	}
}
