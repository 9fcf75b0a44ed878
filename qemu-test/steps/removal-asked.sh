# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get remove linux-image-$1 with debconf's teletype frontend: asked whether to abort; "yes" keeps the running kernel
check_step() {
	if printf 'yes\n' | DEBIAN_FRONTEND=teletype timeout "$(limit guest-apt-remove)" \
		apt-get remove -y "linux-image-$1" >/run/kbs/remove.out 2>&1; then
		echo "the running kernel's image was removed"
		return 1
	fi
	removal_refused "$1" 'Abort kernel removal?'
}
