# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get install the $1 packages: $2's image, kbuild, host programs, source tree
# apt-install GROUP REL ABI: the .debs of /kbs/debs/GROUP, offline; then
# the four packages of REL are installed
check_step() {
	apt_install "$KBS/debs/$1"/*.deb || return
	pkgs_are ii "$2" "$3"
}
