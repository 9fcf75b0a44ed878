# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1: make -C /lib/modules/$(uname -r)/build M=$PWD modules_install, modprobe, rmmod
check_step() {
	(cd "/tmp/modules/$1" && make -C "/lib/modules/$(uname -r)/build" M="$PWD" modules_install) || return
	modprobe_module "$1"
}
