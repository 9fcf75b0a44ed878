# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get install linux-image-$2 linux-kbuild-$2 from the repository $1: the metapackages bring $3
# meta-install REPO FLAVOUR REL: an apt repository of /kbs/debs/REPO
check_step() {
	printf 'deb [trusted=yes] file:%s ./\n' "$KBS/debs/$1" >/etc/apt/sources.list.d/kbs-$1.list
	apt-get update -qq || return
	apt_install "linux-image-$2" "linux-kbuild-$2" || return
	pkg_is "linux-image-$3" ii && pkg_is "linux-kbuild-$3" ii && pkg_is "linux-kbuild-hostprogs-$3" ii
}
