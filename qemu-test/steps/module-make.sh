# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1: make (KDIR ?= /lib/modules/$(uname -r)/build)
# module-make NAME: a fresh copy of /kbs/modules/NAME built in
# /tmp/modules; but on bookworm (whose arm64 compiler differs from the
# cross compiler in its Debian revision: qemu-test/guest/extmod-kinds),
# without kbuild's "compiler differs" warning
check_step() {
	rm -rf "/tmp/modules/$1"
	mkdir -p /tmp/modules
	cp -r "$KBS/modules/$1" "/tmp/modules/$1"
	_mm_rc=0
	timeout "$(limit guest-module-build)" make -C "/tmp/modules/$1" > "/tmp/modules/$1.log" 2>&1 || _mm_rc=$?
	cat "/tmp/modules/$1.log"
	[ "$_mm_rc" -eq 0 ] || return "$_mm_rc"
	[ "$KBS_SUITE" = bookworm ] || ! grep -q 'compiler differs' "/tmp/modules/$1.log" ||
		{ echo "built with another compiler than the kernel's, on $KBS_SUITE"; return 1; }
}
