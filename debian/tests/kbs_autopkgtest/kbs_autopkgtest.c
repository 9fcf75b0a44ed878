// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_autopkgtest - the external module debian/tests/build-module builds
 * against each installed object tree of this source package, as a vendor
 * driver or a DKMS package would: make -C /lib/modules/<rel>/build M=$PWD.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init kbs_autopkgtest_init(void)
{
	pr_info("kbs_autopkgtest: loaded\n");
	return 0;
}

static void __exit kbs_autopkgtest_exit(void)
{
	pr_info("kbs_autopkgtest: unloaded\n");
}

module_init(kbs_autopkgtest_init);
module_exit(kbs_autopkgtest_exit);

MODULE_DESCRIPTION("kbuild-split autopkgtest: external module built against the installed headers");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
