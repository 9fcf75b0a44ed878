# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: modprobe loop, rmmod loop
check_step() {
	modprobe loop || return
	[ -d /sys/module/loop ] || {
		echo "modprobe loop succeeded but /sys/module/loop is missing"
		return 1
	}
	rmmod loop
}
