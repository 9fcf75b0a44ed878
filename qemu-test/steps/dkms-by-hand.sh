# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: kbs_dkms for $1 by hand: dkms remove (what the hooks built), build, install
check_step() {
	if [ -n "$(dkms status -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1")" ]; then
		dkms remove -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1" || return
	fi
	if [ -z "$(dkms status -m "$DKMS_NAME" -v "$DKMS_VER")" ]; then
		[ -d "/usr/src/$DKMS_NAME-$DKMS_VER" ] || cp -r "$KBS/modules/kbs_dkms" "/usr/src/$DKMS_NAME-$DKMS_VER"
		dkms add -m "$DKMS_NAME" -v "$DKMS_VER" || return
	fi
	timeout "$(limit guest-dkms-build)" dkms build -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1" || {
		_rc=$?
		cat "/var/lib/dkms/$DKMS_NAME/$DKMS_VER/build/make.log" 2>/dev/null
		return "$_rc"
	}
	dkms install -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1" || return
	dkms_for "$1"
}
