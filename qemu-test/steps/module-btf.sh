# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1 has its BTF: a .BTF section, /sys/kernel/btf/<module> while it is loaded
# module-btf MODULE: MODULE is an installed module's name (modprobe) or a
# .ko file (insmod); skipped on a kernel without module BTF
check_step() {
	_rel=$(uname -r)
	grep -qx 'CONFIG_DEBUG_INFO_BTF_MODULES=y' "/boot/config-$_rel" ||
		{ echo "$_rel has no module BTF (CONFIG_DEBUG_INFO_BTF_MODULES)"; return 77; }
	case $1 in
	*.ko) _ko=$1 _name=$(basename "$1" .ko) ;;
	*) _ko=$(modinfo -n "$1") || return; _name=$1 ;;
	esac
	readelf -S -W "$_ko" | grep -q ' \.BTF ' ||
		{ echo "$_ko has no .BTF section (kbuild skipped its BTF: no vmlinux in the object tree, or no pahole)"; return 1; }
	case $1 in
	*.ko) insmod "$_ko" ;;
	*) modprobe "$_name" ;;
	esac || return
	ls -l "/sys/kernel/btf/$_name"
	_size=$(stat -c %s "/sys/kernel/btf/$_name" 2>/dev/null || echo 0)
	rmmod "$_name" || return
	[ "$_size" -gt 0 ] || { echo "no BTF in /sys/kernel/btf/$_name while $_name was loaded"; return 1; }
}
