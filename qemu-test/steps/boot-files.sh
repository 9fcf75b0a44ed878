# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: linux-image-$1: /boot has vmlinuz, System.map, config
check_step() {
	for _f in vmlinuz System.map config; do
		[ -s "/boot/$_f-$1" ] || {
			echo "/boot/$_f-$1 missing"
			return 1
		}
	done
}
