# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get remove linux-image-$1, the running kernel, with nobody to ask: refused (linux-check-removal)
# debconf, without DEBIAN_FRONTEND=noninteractive and with no terminal,
# falls back to its noninteractive frontend, and the question's default
# is to abort
check_step() {
	if env -u DEBIAN_FRONTEND timeout "$(limit guest-apt-remove)" apt-get remove -y "linux-image-$1" \
		</dev/null >/run/kbs/remove.out 2>&1; then
		echo "the running kernel's image was removed"
		return 1
	fi
	removal_refused "$1" 'Aborting removal of the running kernel'
}
