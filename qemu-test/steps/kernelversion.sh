# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: generated Makefile: make -C /lib/modules/$1/build kernelversion prints $2
check_step() {
	_v=$(make -s -C "/lib/modules/$1/build" kernelversion) || return
	[ "$_v" = "$2" ] || {
		echo "make kernelversion in the object tree printed '$_v', expected $2"
		return 1
	}
}
