#!/bin/sh
# Maintainer script of @PACKAGE@, made by debian/bin/genmaintscripts
# from debian/maint/: the shared header, the helpers it calls, its body.
set -e

# shellcheck disable=SC2034 # each script uses some of these
{
	version=@REL@
	image=/boot/vmlinuz-$version
	moddir=@MODULES_DIR@/$version
	hookdir=@HOOKDIR@
	hook_runner=@HOOK_RUNNER@
	# the script's own arguments, for the hooks (DEB_MAINT_PARAMS)
	MAINT_PARAMS="$*"
}
# Whether this kernel can use an initramfs, as the kernel's own builddeb
# says it: linux-update-symlinks links /initrd.img only when it is not No,
# and initramfs-tools' hooks skip such a kernel.
export INITRD=@INITRD@
