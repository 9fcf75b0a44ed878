#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/hostprogs.sh - what an external module build runs, in every
# build's packages: the host programs complete, for each machine.
#
# Usage: tests/hostprogs.sh [DEBDIR...]  (default: each target suite's
#                                          out/[<suite>/]debs that has builds)
#
# For every object tree (linux-kbuild-<rel>) of every build in each
# DEBDIR/manifest, read from its own .config: each of its host-programs
# packages (one per machine architecture built) holds fixdep, modpost and
# genksyms, objtool when CONFIG_OBJTOOL, resolve_btfids when
# CONFIG_DEBUG_INFO_BTF_MODULES, sign-file when CONFIG_MODULE_SIG, and
# every ELF file in it is of that package's architecture; the object tree
# itself holds no program, and with module BTF its vmlinux, the base of
# modules' BTF, holds vmlinux's .BTF and nothing else (its size is
# reported); no package of the build ships a private key.  Says which
# machine architectures each tree's host programs were built for.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"

W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# unpack DEB DIR: DEB's files in DIR (emptied first)
unpack() {
	rm -rf "$2"
	dpkg-deb -x "$1" "$2"
}

# expected_programs CONFIG: the host programs an object tree of that
# .config needs, relative to it, one a line
expected_programs() {
	printf '%s\n' scripts/basic/fixdep scripts/mod/modpost scripts/genksyms/genksyms
	! grep -qx 'CONFIG_OBJTOOL=y' "$1" || echo tools/objtool/objtool
	! grep -qx 'CONFIG_DEBUG_INFO_BTF_MODULES=y' "$1" || echo tools/bpf/resolve_btfids/resolve_btfids
	! grep -qx 'CONFIG_MODULE_SIG=y' "$1" || echo scripts/sign-file
}

# check_hostprogs DEB REL CONFIG: DEB has every program CONFIG's tree
# needs, and only ELF files of its own architecture
check_hostprogs() {
	_arch=$(dpkg-deb -f "$1" Architecture)
	_want=$(data_value "$TOP/debian/arches/$_arch" elf-machine) || { echo "no elf-machine for $_arch"; return 1; }
	unpack "$1" "$W/hp"
	_tree=$W/hp/usr/src/linux-kbuild-$2
	for _p in $(expected_programs "$3"); do
		[ -x "$_tree/$_p" ] || { echo "${1##*/} lacks $_p"; return 1; }
		_m=$(elf_machine "$_tree/$_p")
		[ "$_m" = "$_want" ] || { echo "$_p in ${1##*/} is for ELF machine ${_m:-none}, not $_arch's $_want"; return 1; }
		echo "# $_arch: $_p: $(file -b "$_tree/$_p" | cut -d, -f1-2)"
	done
	check_elf "$1"
}

# check_objtree DEB REL: no program in the object tree; with module BTF,
# a vmlinux with .BTF alone
check_objtree() {
	unpack "$1" "$W/kb"
	_tree=$W/kb/usr/src/linux-kbuild-$2
	for _f in $(find "$W/kb" -type f | sort); do
		[ -z "$(elf_machine "$_f")" ] || [ "$_f" = "$_tree/vmlinux" ] ||
			{ echo "${1##*/} ships the ELF file ${_f#"$W/kb/"}"; return 1; }
	done
	if grep -qx 'CONFIG_DEBUG_INFO_BTF_MODULES=y' "$_tree/.config"; then
		[ -f "$_tree/vmlinux" ] || { echo "${1##*/} has module BTF but no vmlinux for its base"; return 1; }
		# every section but the null one, [0]
		_sections=$(LC_ALL=C readelf -S -W "$_tree/vmlinux" | sed -n 's/^ *\[ *[1-9][0-9]*\] \([^ ]*\) .*/\1/p' |
			grep -v '^\.\(shstrtab\|strtab\|symtab\)$' | tr '\n' ' ')
		[ "$_sections" = ".BTF " ] || { echo "the vmlinux of ${1##*/} has sections $_sections, not .BTF alone"; return 1; }
		echo "# $2: vmlinux (.BTF only): $(stat -c %s "$_tree/vmlinux") bytes"
		dpkg-deb -f "$1" Depends | grep -q 'pahole (>= ' || { echo "${1##*/} does not depend on pahole"; return 1; }
	elif [ -e "$_tree/vmlinux" ]; then
		echo "${1##*/} ships a vmlinux without module BTF"
		return 1
	fi
	cp "$_tree/.config" "$W/config"
}

# check_no_private_key DEB...: no PEM private key in any DEB
check_no_private_key() {
	for _d in "$@"; do
		unpack "$_d" "$W/pk"
		_key=$(grep -rl -e '-----BEGIN .*PRIVATE KEY-----' "$W/pk" | head -n 1) || true # none: good
		[ -z "$_key" ] || { echo "${_d##*/} ships the private key ${_key#"$W/pk/"}"; return 1; }
	done
}

# check_build DEBS SERIES: the checks of SERIES' build in DEBS
check_build() {
	for _fl in $(manifest_flavours "$1" "$2"); do
		_kb=$(manifest_get "$1" file series="$2" flavour="$_fl" kind=kbuild) || exit 1
		_rel=$(dpkg-deb -f "$_kb" Package)
		_rel=${_rel#linux-kbuild-}
		ktap_check "$_rel: the object tree holds no program (but, with module BTF, its BTF base)" check_objtree "$_kb" "$_rel"
		[ -r "$W/config" ] || continue
		_arches=
		for _hp in $(manifest_debs "$1" series="$2" flavour="$_fl" kind=hostprogs); do
			_a=$(dpkg-deb -f "$_hp" Architecture)
			_arches="$_arches $_a"
			ktap_check "$_rel: host programs for $_a machines, complete and of $_a" check_hostprogs "$_hp" "$_rel" "$W/config"
		done
		echo "# $_rel: host programs built for$_arches machines (of $(dpkg-deb -f "$_kb" Architecture))"
		rm -f "$W/config"
	done
	# shellcheck disable=SC2046 # file names without spaces
	ktap_check "$2: no package of the build ships a private key" check_no_private_key $(manifest_debs "$1" series="$2")
}

# default_debdirs: the .deb directory of each target suite that has builds
default_debdirs() {
	for _s in $(data_lines "$TOP/debian/config/suites" | awk '{ print $1 }'); do
		_o=$(suite_out "$_s")/debs
		[ ! -r "$_o/manifest" ] || echo "$_o"
	done
}

main() {
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2046 # directory names without spaces (out/)
		set -- $(default_debdirs)
		[ $# -gt 0 ] || die "no build to check: build first (./build-kernel.sh --for-tests)"
	fi
	trap cleanup EXIT
	W=$(mktemp -d)
	echo "KTAP version 1"
	for _debs in "$@"; do
		for _series in $(manifest_series "$_debs"); do
			echo "# $_debs: $_series"
			check_build "$_debs" "$_series"
		done
	done
	ktap_summary
}

main "$@"
