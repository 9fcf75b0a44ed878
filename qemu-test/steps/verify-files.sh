# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: no file of $1's packages lost or changed (dpkg --verify)
check_step() {
	_vf=$(dpkg --verify "linux-image-$1" "linux-kbuild-$1" "linux-kbuild-hostprogs-$1" "linux-kbuild-source-$2" 2>&1)
	[ -z "$_vf" ] || {
		printf '%s\n' "$_vf" | head -n 5
		echo "dpkg --verify: $(printf '%s\n' "$_vf" | wc -l) files missing or changed"
		return 1
	}
}
