# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: the purge: dkms removed kbs_dkms for $1, /lib/modules/$1 gone
check_step() {
	_st=$(dkms status -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1")
	case $_st in
	*"$1"*)
		echo "dkms still lists: $_st"
		return 1
		;;
	esac
	! [ -e "/lib/modules/$1" ] || {
		find "/lib/modules/$1" | head -n 5
		echo "/lib/modules/$1 is still there"
		return 1
	}
}
