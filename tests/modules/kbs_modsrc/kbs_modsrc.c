// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_modsrc - an external module whose Makefile finds the kernel source
 * tree at /lib/modules/<release>/source and includes a private header of
 * it.  The test checks the "kbs_modsrc: loaded" line in dmesg.
 */
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "base.h"	/* /lib/modules/<release>/source/drivers/base/base.h */

static int __init kbs_modsrc_init(void)
{
	pr_info("kbs_modsrc: loaded, sizeof(struct subsys_private)=%zu\n",
		sizeof(struct subsys_private));
	return 0;
}

static void __exit kbs_modsrc_exit(void)
{
	pr_info("kbs_modsrc: unloaded\n");
}

module_init(kbs_modsrc_init);
module_exit(kbs_modsrc_exit);

MODULE_DESCRIPTION("kbuild-split test: the source tree from /lib/modules/<release>/source");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
