// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_plain - an external module that needs only the object tree.
 *
 * It includes nothing beyond the public kernel headers, so it builds with
 * `make -C /lib/modules/$(uname -r)/build M=$PWD` as long as the object
 * tree and its `source` link are laid out right.  The test checks the
 * "kbs_plain: loaded" line in dmesg.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/utsname.h>

static int __init kbs_plain_init(void)
{
	pr_info("kbs_plain: loaded on %s\n", init_utsname()->release);
	return 0;
}

static void __exit kbs_plain_exit(void)
{
	pr_info("kbs_plain: unloaded\n");
}

module_init(kbs_plain_init);
module_exit(kbs_plain_exit);

MODULE_DESCRIPTION("kbuild-split test: external module built from the object tree");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
