# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: dkms add kbs_dkms, before any kbuild-split kernel is installed
check_step() {
	cp -r "$KBS/modules/kbs_dkms" "/usr/src/$DKMS_NAME-$DKMS_VER"
	dkms add -m "$DKMS_NAME" -v "$DKMS_VER" || return
	dkms status
	! dkms_installed "$(uname -r)" >/dev/null
}
