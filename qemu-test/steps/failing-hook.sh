# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: a failing postinst.d hook: apt-get install of the $1 packages fails naming it, linux-image-$2 half-configured
check_step() {
	printf '#!/bin/sh\necho "zz-kbs-fail: refusing $1" >&2\nexit 1\n' >/etc/kernel/postinst.d/zz-kbs-fail
	chmod 755 /etc/kernel/postinst.d/zz-kbs-fail
	if apt_install "$KBS/debs/$1"/*.deb >/run/kbs/apt.out 2>&1; then
		echo "apt-get install succeeded although a postinst.d hook failed"
		return 1
	fi
	grep -E 'zz-kbs-fail|hook|dpkg' /run/kbs/apt.out
	grep -q 'zz-kbs-fail' /run/kbs/apt.out || {
		echo "the failure does not name the hook zz-kbs-fail"
		return 1
	}
	pkg_is "linux-image-$2" iF
}
