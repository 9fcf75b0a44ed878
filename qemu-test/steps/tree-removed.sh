# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: check-tree --removed $1: the build and source links went with linux-kbuild
check_step() {
	"$KBS/qemu-test/check-tree" --removed / "$1"
}
