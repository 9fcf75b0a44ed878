// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_private - the vendor-driver case: an external module that includes a
 * private header of the kernel source tree (drivers/base/base.h), which no
 * public include path provides.  It builds only when $(srctree) reaches the
 * full source half, through the object tree's `source` link.  The test
 * checks the "kbs_private: loaded" line in dmesg.
 */
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "base.h"	/* $(srctree)/drivers/base/base.h */

static int __init kbs_private_init(void)
{
	pr_info("kbs_private: loaded, sizeof(struct subsys_private)=%zu\n",
		sizeof(struct subsys_private));
	return 0;
}

static void __exit kbs_private_exit(void)
{
	pr_info("kbs_private: unloaded\n");
}

module_init(kbs_private_init);
module_exit(kbs_private_exit);

MODULE_DESCRIPTION("kbuild-split test: external module using a private source-tree header");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
