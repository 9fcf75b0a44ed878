# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get remove linux-image-$1, the running kernel, with nobody to ask: refused (linux-check-removal)
# debconf, without DEBIAN_FRONTEND=noninteractive and with no terminal,
# falls back to its noninteractive frontend, and the question's default
# is to abort
check_step() {
	if env -u DEBIAN_FRONTEND timeout "$(limit guest-apt-remove)" apt-get remove -y "linux-image-$1" \
		</dev/null >/run/kbs/remove.out 2>&1; then
		tail -n 5 /run/kbs/remove.out
		echo "the running kernel's image was removed"
		return 1
	fi
	grep -q 'Aborting removal of the running kernel' /run/kbs/remove.out || {
		tail -n 5 /run/kbs/remove.out
		echo "the removal failed, but not for linux-check-removal"
		return 1
	}
	dpkg --configure -a
	pkg_is "linux-image-$1" ii
}
