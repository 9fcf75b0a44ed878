# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: apt-get remove linux-kbuild-$1
check_step() {
	timeout "$(limit guest-apt-remove)" apt-get remove -y "linux-kbuild-$1"
}
