# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1: make (KDIR ?= /lib/modules/$(uname -r)/build)
# module-make NAME: a fresh copy of /kbs/modules/NAME built in /tmp/modules
check_step() {
	rm -rf "/tmp/modules/$1"
	mkdir -p /tmp/modules
	cp -r "$KBS/modules/$1" "/tmp/modules/$1"
	timeout "$(limit guest-module-build)" make -C "/tmp/modules/$1"
}
