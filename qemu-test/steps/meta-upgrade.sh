# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt upgrade with the repository $1 added: the metapackages bring the new ABI's $2 beside $3
# meta-upgrade REPO NEWREL OLDREL
check_step() {
	printf 'deb [trusted=yes] file:%s ./\n' "$KBS/debs/$1" >/etc/apt/sources.list.d/kbs-$1.list
	apt-get update -qq || return
	: >/run/kbs/hooks.log
	timeout "$(limit guest-apt-install)" apt upgrade -y || return
	pkg_is "linux-image-$2" ii && pkg_is "linux-kbuild-$2" ii || return
	pkg_is "linux-image-$3" ii && pkg_is "linux-kbuild-$3" ii || return
	hook_ran postinst.d "$2 /boot/vmlinuz-$2" && hook_ran header_postinst.d "$2"
}
