# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: initramfs-tools' postinst.d hook did for $1 what its CONFIG_BLK_DEV_INITRD asks
# initramfs REL: the image's postinst ran /etc/kernel/postinst.d with
# INITRD=Yes or No, from REL's configuration; the initramfs-tools hook (the
# guest's suite's own) then made /boot/initrd.img-REL with REL's modules,
# or none.  Exit 77, a skip, in a guest without initramfs-tools
# (qemu-test/packages installs it where the suite does by default).
check_step() {
	if ! [ -x /usr/sbin/update-initramfs ]; then
		echo "initramfs-tools is not installed in this guest (qemu-test/packages)"
		return 77
	fi
	if ! grep -q '^CONFIG_BLK_DEV_INITRD=y' "/boot/config-$1"; then
		! [ -e "/boot/initrd.img-$1" ] ||
			{ echo "/boot/initrd.img-$1 made for a kernel without CONFIG_BLK_DEV_INITRD"; return 1; }
		echo "$1 has no CONFIG_BLK_DEV_INITRD: the hook was told INITRD=No and made no initramfs"
		return 0
	fi
	[ -s "/boot/initrd.img-$1" ] || { echo "/boot/initrd.img-$1 missing"; return 1; }
	lsinitramfs "/boot/initrd.img-$1" | grep -q "modules/$1/modules.dep\$" ||
		{ echo "the initramfs has no modules/$1/modules.dep"; return 1; }
}
