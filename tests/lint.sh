#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/lint.sh - shellcheck every shell script of the repository, and the
# maintainer scripts as debian/rules generates them.
#
# Usage: tests/lint.sh

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# shell_scripts: tracked files that are shell by name or by #! line
shell_scripts() {
	git -C "$TOP" ls-files | while read -r _f; do
		case $_f in
		debian/templates/* | debian/rules | *.config | *.patch) ;;
		*.sh) echo "$_f" ;;
		*) head -n 1 "$TOP/$_f" 2>/dev/null | grep -qE '^#!.*/(ba|da)?sh' && echo "$_f" ;;
		esac
	done
}

main() {
	need_cmd shellcheck shellcheck
	trap cleanup EXIT
	W=$(mktemp -d)
	for _f in $(shell_scripts); do
		ktap_check "shellcheck $_f" shellcheck -S warning "$TOP/$_f"
	done
	# The maintainer scripts: templates with the shared links code, as debian/rules makes them.
	for _t in "$TOP"/debian/templates/image.*.in "$TOP"/debian/templates/kbuild.*.in; do
		_s=$W/$(basename "$_t" .in)
		sed -e '/#LINKS#/{r '"$TOP/debian/templates/links.sh" -e 'd}' "$_t" |
			sed -e 's/@REL@/6.1.0-flavour/g' -e 's/@KVER@/6.1.0/g' -e 's/@INITRD@/No/g' -e 's/#DEBHELPER#//' > "$_s"
		ktap_check "shellcheck debian/templates/${_t##*/}" shellcheck -s sh -S warning "$_s"
	done
	ktap_summary
}

main "$@"
