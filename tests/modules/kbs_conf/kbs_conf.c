// SPDX-License-Identifier: GPL-2.0
/*
 * kbs_conf - an external module configured the way OpenZFS is: ./configure
 * --with-linux=<source> --with-linux-obj=<build> checks both trees and
 * probes the kernel with conftest modules into kbs_config.h.  The test
 * checks the "kbs_conf: loaded" line in dmesg.
 */
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "base.h"	/* <source>/drivers/base/base.h */

#ifdef HAVE_TIMER_DELETE_SYNC
#define KBS_TIMER_API "timer_delete_sync"
#else
#define KBS_TIMER_API "del_timer_sync"
#endif

static int __init kbs_conf_init(void)
{
	pr_info("kbs_conf: loaded, timer API %s, sizeof(struct subsys_private)=%zu\n",
		KBS_TIMER_API, sizeof(struct subsys_private));
	return 0;
}

static void __exit kbs_conf_exit(void)
{
	pr_info("kbs_conf: unloaded\n");
}

module_init(kbs_conf_init);
module_exit(kbs_conf_exit);

MODULE_DESCRIPTION("kbuild-split test: an autoconf-style configure with --with-linux and --with-linux-obj");
MODULE_AUTHOR("kbuild-split");
MODULE_LICENSE("GPL");
