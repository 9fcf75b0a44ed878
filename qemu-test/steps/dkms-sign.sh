# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: dkms signs kbs_dkms for $1 with a MOK key it is given, finding the object tree's sign-file itself
# dkms-sign REL: the tests' trusted key as dkms's MOK key and certificate
# (as a user enrolls their own); sign_file is left to dkms to find
check_step() {
	grep -qx 'CONFIG_MODULE_SIG=y' "/boot/config-$1" ||
		{ echo "$1 does not check module signatures (CONFIG_MODULE_SIG)"; return 77; }
	mkdir -p /etc/dkms/framework.conf.d
	printf 'mok_signing_key=%s\nmok_certificate=%s\n' "$KBS/keys/trusted.key" "$KBS/keys/trusted.crt" \
		> /etc/dkms/framework.conf.d/kbs-signing.conf
	timeout "$(limit guest-dkms-build)" dkms build --force -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1" > /tmp/dkms-sign.log 2>&1 || {
		_rc=$?
		cat /tmp/dkms-sign.log
		return "$_rc"
	}
	cat /tmp/dkms-sign.log
	dkms install --force -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1" || return
	_ko=$(modinfo -k "$1" -n "$DKMS_NAME") || return
	modinfo -F signer "$_ko"
	modinfo -F signer "$_ko" | grep -q 'kbuild-split trusted test key' ||
		{ echo "dkms did not sign $_ko with the key it was given"; return 1; }
}
