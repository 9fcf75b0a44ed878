# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1.ko cross-built on the build host against the apt-installed packages: insmod prints '$1: loaded', rmmod
check_step() {
	dmesg -C
	insmod "$KBS/cross/$1.ko" || return
	expect_loaded "$1" || return
	rmmod "$1"
}
