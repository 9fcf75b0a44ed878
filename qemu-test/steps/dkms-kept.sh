# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: kbs_dkms still installed for $1 and $2
check_step() {
	dkms_for "$1" && dkms_for "$2"
}
