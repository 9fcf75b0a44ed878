# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: the hooks built and installed kbs_dkms for $1, dkms not called
check_step() {
	dkms_for "$1"
}
