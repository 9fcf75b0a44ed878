#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/lint.sh - shellcheck every shell script of the repository, and
# check the maintainer scripts as debian/bin/genmaintscripts makes them:
# sh -n, shellcheck, no function defined twice, the hooks each must run
# (debian/maint/hooks).
#
# Usage: tests/lint.sh

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"

W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# repo_files: the tracked files (all files but out/, without git)
repo_files() {
	if [ -d "$TOP/.git" ] && command -v git >/dev/null 2>&1; then
		git -C "$TOP" ls-files
	else
		(cd "$TOP" && find . -path ./out -prune -o -path ./.git -prune -o -type f -print | sed 's:^\./::')
	fi
}

# shell_scripts: tracked files that are shell by name or by #! line
shell_scripts() {
	repo_files | while read -r _f; do
		case $_f in
		debian/maint/* | debian/templates/* | debian/rules | *.config | *.patch) ;;
		*.sh) echo "$_f" ;;
		*) head -n 1 "$TOP/$_f" 2>/dev/null | grep -qE '^#!.*/(ba|da)?sh' && echo "$_f" ;;
		esac
	done
}

# check_maint_script SCRIPT KIND.NAME
check_maint_script() {
	_p=$(maint_script_problems "$1" "$2")
	[ -z "$_p" ] || { printf '%s\n' "$_p"; return 1; }
}

main() {
	need_cmd shellcheck shellcheck
	trap cleanup EXIT
	W=$(mktemp -d)
	for _f in $(shell_scripts); do
		ktap_check "shellcheck $_f" shellcheck -S warning "$TOP/$_f"
	done
	# The maintainer scripts, as debian/rules has them made.
	for _kind in image kbuild; do
		"$TOP/debian/bin/genmaintscripts" "$_kind" "linux-$_kind-6.1.0-1-flavour" "$W" \
			REL=6.1.0-1-flavour ABINAME=6.1.0-1 HOOKDIR=/etc/kernel INITRD=No
	done
	for _s in "$W"/linux-*; do
		_name=$(echo "${_s##*/}" | sed 's/^linux-\([a-z]*\)-.*\.\([a-z]*\)$/\1.\2/')
		ktap_check "generated maintainer script $_name" check_maint_script "$_s" "$_name"
	done
	ktap_summary
}

main "$@"
