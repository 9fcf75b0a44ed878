# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: module.sig_enforce on: only modules signed by a trusted key load from now on
# sig-enforce: the kernel's module.sig_enforce parameter, as the command
# line sets it; it cannot be turned off until the next boot, so the
# phase's later steps are those that load modules under enforcement
check_step() {
	_p=/sys/module/module/parameters/sig_enforce
	grep -qx 'CONFIG_MODULE_SIG=y' "/boot/config-$(uname -r)" ||
		{ echo "$(uname -r) does not check module signatures (CONFIG_MODULE_SIG)"; return 77; }
	[ "$(cat "$_p")" = Y ] || echo 1 > "$_p" || return
	[ "$(cat "$_p")" = Y ] || { echo "$_p is $(cat "$_p")"; return 1; }
}
