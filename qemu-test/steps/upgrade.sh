# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: upgrade of $2 and $3 to $KBS_UP_VERSION with apt-get install of the $1 packages, hooks run
check_step() {
	: >/run/kbs/hooks.log
	apt_install "$KBS/debs/$1"/*.deb || return
	for _p in "linux-image-$2" "linux-kbuild-$2" "linux-kbuild-hostprogs-$2" "linux-kbuild-source-$KBS_ABINAME" \
		"linux-image-$3" "linux-kbuild-$3"; do
		_v=$(dpkg-query -W -f '${Version}' "$_p")
		[ "$_v" = "$KBS_UP_VERSION" ] || {
			echo "$_p is at $_v after the upgrade, expected $KBS_UP_VERSION"
			return 1
		}
	done
	hook_ran postinst.d "$2 /boot/vmlinuz-$2" && hook_ran header_postinst.d "$2"
}
