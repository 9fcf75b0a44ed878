# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: check-tree $1: build and source links, object and source trees
check_step() {
	tree_ok "$@"
}
