# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: under module.sig_enforce, $1-$2.ko (sign-copies) is loaded only if signed by the trusted key
# sig-load NAME KEY: KEY trusted loads; unsigned and other are refused
check_step() {
	[ "$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)" = Y ] ||
		{ echo "module.sig_enforce is off (step sig-enforce)"; return 77; }
	dmesg -C
	if insmod "/tmp/sig/$1-$2.ko" 2>/tmp/sig/insmod.err; then
		rmmod "$1"
		[ "$2" = trusted ] || { echo "$1-$2.ko loaded under module.sig_enforce"; return 1; }
		expect_loaded "$1"
	else
		cat /tmp/sig/insmod.err
		dmesg | tail -n 2
		[ "$2" != trusted ] || { echo "$1-$2.ko, signed with a trusted key, was refused"; return 1; }
		grep -q 'Key was rejected\|Required key not available' /tmp/sig/insmod.err ||
			{ echo "$1-$2.ko was refused for another reason than its signature"; return 1; }
	fi
}
