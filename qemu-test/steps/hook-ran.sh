# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: the maintainer scripts ran /etc/kernel/$1 with $2 $3
# hook-ran DIR ARG...: as recorded by qemu-test/guest/record-hook
check_step() {
	_dir=$1
	shift
	hook_ran "$_dir" "$*"
}
