# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: linux-image-$1: postinst ran depmod
check_step() {
	grep -q 'kernel/drivers/block/loop\.ko' "/lib/modules/$1/modules.dep" || {
		echo "/lib/modules/$1/modules.dep does not list loop.ko (depmod not run?)"
		return 1
	}
}
