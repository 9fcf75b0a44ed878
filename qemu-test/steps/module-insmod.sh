# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1: insmod prints '$1: loaded', rmmod
check_step() {
	dmesg -C
	insmod "/tmp/modules/$1/$1.ko" || return
	expect_loaded "$1" || return
	rmmod "$1"
}
