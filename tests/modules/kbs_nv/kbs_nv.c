// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_nv - an external module built the way NVIDIA's open modules are: make
 * runs in the SOURCE tree (SYSSRC=) with KBUILD_OUTPUT set to the object
 * tree (SYSOUT=).  The test checks the "kbs_nv: loaded" line in dmesg.
 */
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "base.h"	/* SYSSRC/drivers/base/base.h */
#include "utsrelease.h"	/* SYSOUT/include/generated/utsrelease.h */

static int __init kbs_nv_init(void)
{
	pr_info("kbs_nv: loaded, built for %s, sizeof(struct subsys_private)=%zu\n",
		UTS_RELEASE, sizeof(struct subsys_private));
	return 0;
}

static void __exit kbs_nv_exit(void)
{
	pr_info("kbs_nv: unloaded\n");
}

module_init(kbs_nv_init);
module_exit(kbs_nv_exit);

MODULE_DESCRIPTION("kbuild-split test: SYSSRC= and SYSOUT=, make run in the source tree");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
