# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: initramfs-tools' postinst.d hook made /boot/initrd.img-$1 with $1's modules
# initramfs REL: the image's postinst ran /etc/kernel/postinst.d, whose
# initramfs-tools hook (the guest's suite's own) built REL's initramfs;
# exit 77, a skip, in a guest without initramfs-tools (qemu-test/packages
# installs it where the suite does by default)
check_step() {
	if ! [ -x /usr/sbin/update-initramfs ]; then
		echo "initramfs-tools is not installed in this guest (qemu-test/packages)"
		return 77
	fi
	[ -s "/boot/initrd.img-$1" ] || { echo "/boot/initrd.img-$1 missing"; return 1; }
	lsinitramfs "/boot/initrd.img-$1" | grep -q "modules/$1/modules.dep\$" ||
		{ echo "the initramfs has no modules/$1/modules.dep"; return 1; }
}
