# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: modprobe kbs_dkms prints 'kbs_dkms: loaded', rmmod
check_step() {
	modprobe_module "$DKMS_NAME"
}
