// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_trees - an external module whose Kbuild file reaches both trees by
 * name: a private header through $(srctree), a generated header through
 * $(objtree).  The test checks the "kbs_trees: loaded" line in dmesg.
 */
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "base.h"	/* $(srctree)/drivers/base/base.h */
#include "utsrelease.h"	/* $(objtree)/include/generated/utsrelease.h */

static int __init kbs_trees_init(void)
{
	pr_info("kbs_trees: loaded, built for %s, sizeof(struct subsys_private)=%zu\n",
		UTS_RELEASE, sizeof(struct subsys_private));
	return 0;
}

static void __exit kbs_trees_exit(void)
{
	pr_info("kbs_trees: unloaded\n");
}

module_init(kbs_trees_init);
module_exit(kbs_trees_exit);

MODULE_DESCRIPTION("kbuild-split test: $(srctree) and $(objtree) in an external Kbuild file");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
