// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_dkms - an external module packaged for DKMS.
 *
 * The test guest copies this directory to /usr/src/kbs_dkms-1.0 and has
 * Debian's dkms add, build and install it for the kbuild-split kernel, then
 * loads it with modprobe: that is the path a third-party driver takes when
 * linux-kbuild-<rel> is installed.  It uses a module parameter and the
 * kernel's utsname, so the build also exercises moduleparam.h and the
 * generated headers in the object tree.  The test checks the
 * "kbs_dkms: loaded" line in dmesg.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/utsname.h>

static char *greeting = "hello";
module_param(greeting, charp, 0444);
MODULE_PARM_DESC(greeting, "word printed on load");

static int __init kbs_dkms_init(void)
{
	pr_info("kbs_dkms: loaded on %s, %s\n", init_utsname()->release, greeting);
	return 0;
}

static void __exit kbs_dkms_exit(void)
{
	pr_info("kbs_dkms: unloaded\n");
}

module_init(kbs_dkms_init);
module_exit(kbs_dkms_exit);

MODULE_DESCRIPTION("kbuild-split test: external module built and installed by DKMS");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
