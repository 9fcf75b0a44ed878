# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: external module, $1 kind, built as nobody, loaded
# extmod-kind KIND: qemu-test/guest/extmod-kinds builds the kind's test
# module against the running kernel's installed trees; it loads (exit 77,
# a skip, when the kernel lacks the kind)
check_step() {
	_ek_out=$(KBS_SUITE=$KBS_SUITE timeout "$(limit guest-module-build)" "$KBS/qemu-test/guest/extmod-kinds" "$KBS/modules" \
		"$(uname -r)" "$1") || {
		_ek_rc=$?
		printf '%s\n' "$_ek_out"
		return "$_ek_rc"
	}
	printf '%s\n' "$_ek_out"
	_ek_ko=$(printf '%s\n' "$_ek_out" | tail -n 1)
	_ek_name=$(basename "$_ek_ko" .ko)
	dmesg -C
	insmod "$_ek_ko" || return
	expect_loaded "$_ek_name" || return
	rmmod "$_ek_name"
}
