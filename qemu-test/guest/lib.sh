# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# qemu-test/guest/lib.sh: what the guest's check steps share: time
# limits, package states, dkms, module loading.  Sourced by guest/init
# before the steps; /kbs/env (written by the host) sets KBS_REL, KBS_VER
# and what the scenario adds.

# limit STEP: STEP's time limit in seconds (qemu-test/timeouts, guest-*)
limit() {
	data_value "$KBS/qemu-test/timeouts" "$1"
}

apt_install() {
	timeout "$(limit guest-apt-install)" apt-get install -y "$@"
}

apt_purge() {
	timeout "$(limit guest-apt-remove)" apt-get purge -y "$@"
}

# pkg_is PACKAGE STATE: dpkg's two-letter state (ii, iF, ...) or "absent"
pkg_is() {
	_pk=$(dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null | tr -d ' ') || _pk=
	case $_pk in
	'' | un | pn) _pk=absent ;;
	esac
	[ "$_pk" = "$2" ] || {
		echo "$1 is $_pk, expected $2"
		return 1
	}
}

# pkgs_are STATE REL VER: the image, kbuild, host programs and source
# packages of REL
pkgs_are() {
	pkg_is "linux-image-$2" "$1" && pkg_is "linux-kbuild-$2" "$1" &&
		pkg_is "linux-kbuild-hostprogs-$2" "$1" && pkg_is "linux-kbuild-source-$3" "$1"
}

# hook_ran DIR ARGS: a maintainer script ran /etc/kernel/DIR with ARGS
hook_ran() {
	grep -qx "/etc/kernel/$1 $2" /run/kbs/hooks.log 2>/dev/null || {
		cat /run/kbs/hooks.log 2>/dev/null
		echo "/etc/kernel/$1 was not run with '$2'"
		return 1
	}
}

# expect_loaded NAME: the kernel log has the "NAME: loaded" line the module prints
expect_loaded() {
	dmesg | grep -q "$1: loaded" || {
		dmesg | tail -n 5
		echo "no '$1: loaded' line in dmesg"
		return 1
	}
}

# conf_value FILE KEY: a KEY="value" assignment's value in a dkms.conf
conf_value() {
	sed -n "s/^$2=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$1"
}

DKMS_NAME=$(conf_value "$KBS/modules/kbs_dkms/dkms.conf" PACKAGE_NAME)
DKMS_VER=$(conf_value "$KBS/modules/kbs_dkms/dkms.conf" PACKAGE_VERSION)

# dkms_installed REL: dkms says the test package is installed for REL
dkms_installed() {
	_status=$(dkms status -m "$DKMS_NAME" -v "$DKMS_VER" -k "$1")
	printf '%s\n' "$_status"
	case $_status in
	*": installed"*) return 0 ;;
	esac
	echo "dkms status does not say installed for $1"
	return 1
}

# dkms_for REL: dkms has the test package installed for REL, built for REL
dkms_for() {
	dkms_installed "$1" || return
	_vm=$(modinfo -k "$1" -F vermagic "$DKMS_NAME" 2>&1) || {
		echo "modinfo -k $1 $DKMS_NAME: $_vm"
		return 1
	}
	case $_vm in
	"$1 "*) ;;
	*)
		echo "$DKMS_NAME for $1 has vermagic '$_vm'"
		return 1
		;;
	esac
}

# tree_ok REL [VER]: check-tree of an installed release
tree_ok() {
	"$KBS/qemu-test/check-tree" / "$@"
}

# modprobe_module NAME: modprobe prints "NAME: loaded", then rmmod
modprobe_module() {
	dmesg -C
	modprobe "$1" || return
	expect_loaded "$1" || return
	rmmod "$1"
}

# removal_refused REL WHAT: the apt-get remove of the running kernel's
# image whose output is /run/kbs/remove.out failed, it says WHAT, and the
# image is still installed
removal_refused() {
	grep -q "$2" /run/kbs/remove.out || {
		tail -n 5 /run/kbs/remove.out
		echo "the removal's output does not say '$2'"
		return 1
	}
	dpkg --configure -a
	pkg_is "linux-image-$1" ii
}
