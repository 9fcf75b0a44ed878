# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get purge $1's image, kbuild and host programs (and source tree $2)
# purge REL [ABI]: with ABI, its source tree package too, and none of
# them left in /usr/src
check_step() {
	apt_purge "linux-image-$1" "linux-kbuild-$1" "linux-kbuild-hostprogs-$1" ${2:+"linux-kbuild-source-$2"} || return
	pkg_is "linux-image-$1" absent && pkg_is "linux-kbuild-$1" absent || return
	[ -z "${2:-}" ] || pkg_is "linux-kbuild-source-$2" absent || return
	for _d in "/usr/src/linux-kbuild-$1" ${2:+"/usr/src/linux-kbuild-source-$2"}; do
		! [ -e "$_d" ] || {
			echo "$_d is still there"
			return 1
		}
	done
}
