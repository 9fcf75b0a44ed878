# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: guest init mounted /proc /sys /dev /run /tmp
check_step() {
	for _mp in /proc /sys /dev /run /tmp; do
		mountpoint -q "$_mp" || {
			echo "$_mp is not mounted"
			return 1
		}
	done
}
