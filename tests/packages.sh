#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/packages.sh - host-side checks of the built .debs.
#
# Usage: tests/packages.sh [DEBDIR]     (default: out/debs)
#
# For every kernel version found in DEBDIR (one linux-kbuild-source-<ver>
# package each): the expected packages exist for every flavour, each holds
# the right files, no file is in two packages, no shipped file names the
# build directory, no private key is shipped, linux-kbuild Provides
# linux-headers, lintian reports no error, and the C test modules build
# against the object and source trees unpacked from the packages.
#
# Environment: KBS_OUT (default out/), KBS_LINTIAN=0 to skip lintian.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

OUT=${KBS_OUT:-$TOP/out}
W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# deb NAME: the newest .deb of package NAME in DEBS
deb() {
	find "$DEBS" -maxdepth 1 -name "$1_*.deb" | sort -V | tail -n 1
}

# contents NAME: its file list, "./" stripped, symlinks as "path -> target"
contents() {
	dpkg-deb -c "$(deb "$1")" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); sub(/^\.\//, ""); print }'
}

has_files() {
	_pkg=$1
	shift
	contents "$_pkg" > "$W/list"
	for _f in "$@"; do
		grep -qxF -- "$_f" "$W/list" || { echo "$_pkg lacks $_f"; return 1; }
	done
}

check_image() {
	_rel=$KVER-$1
	has_files "linux-image-$_rel" "boot/vmlinuz-$_rel" "boot/System.map-$_rel" "boot/config-$_rel" \
		"lib/modules/$_rel/modules.order" "lib/modules/$_rel/modules.builtin" || return 1
	grep -q "^lib/modules/$_rel/kernel/.*\.ko$" "$W/list" || { echo "no module in linux-image-$_rel"; return 1; }
	! grep -q "^lib/modules/$_rel/\(build\|source\)\b" "$W/list" ||
		{ echo "linux-image-$_rel ships a build or source link"; return 1; }
}

check_kbuild() {
	_rel=$KVER-$1
	_d=usr/src/linux-kbuild-$_rel
	has_files "linux-kbuild-$_rel" "$_d/Makefile" "$_d/.config" "$_d/Module.symvers" \
		"$_d/include/config/auto.conf" "$_d/include/generated/autoconf.h" "$_d/scripts/mod/modpost" \
		"$_d/scripts/basic/fixdep" "$_d/source -> ../linux-kbuild-source-$KVER" \
		"$_d/System.map -> /boot/System.map-$_rel" || return 1
	_ctl=$(dpkg-deb -f "$(deb "linux-kbuild-$_rel")" Provides Depends)
	printf '%s\n' "$_ctl" | grep -q "^Provides: linux-headers-$_rel$" || { echo "no Provides: linux-headers-$_rel"; return 1; }
	printf '%s\n' "$_ctl" | grep -q "linux-kbuild-source-$KVER (= " || { echo "no versioned Depends on the source tree"; return 1; }
}

check_srctree() {
	_d=usr/src/linux-kbuild-source-$KVER
	has_files "linux-kbuild-source-$KVER" "$_d/Makefile" "$_d/Kconfig" "$_d/include/linux/module.h" \
		"$_d/scripts/Makefile.build" "$_d/arch/x86/Makefile" "$_d/drivers/base/base.h" "$_d/mm/slab.h"
	[ "$(dpkg-deb -f "$(deb "linux-kbuild-source-$KVER")" Architecture)" = all ] || { echo "not Architecture: all"; return 1; }
}

check_no_file_twice() {
	for _p in $PACKAGES; do
		contents "$_p" | grep -v -e '/$' -e '^$' -e "^usr/share/doc/$_p/"
	done | sed 's/ -> .*//' | sort | uniq -d > "$W/twice"
	[ ! -s "$W/twice" ] || { echo "in two packages: $(head -n 3 "$W/twice" | tr '\n' ' ')"; return 1; }
}

unpack_all() {
	rm -rf "$W/root"
	for _p in $PACKAGES; do
		dpkg-deb -x "$(deb "$_p")" "$W/root"
	done
}

# The packages were built under $OUT/pkg; nothing shipped may say so.
check_no_build_paths() {
	_hits=$(grep -rlF -e "$OUT/pkg" -e "/debian/build/" "$W/root" | head -n 5 || true) # none is the good case
	[ -z "$_hits" ] || { echo "build path in: $_hits"; return 1; }
}

check_no_private_key() {
	_keys=$(find "$W/root" \( -name '*.pem' -o -name '*.priv' -o -name '*.key' \) -print | head -n 3)
	[ -z "$_keys" ] || { echo "key files: $_keys"; return 1; }
	_keys=$(grep -rlF 'PRIVATE KEY-----' "$W/root" | head -n 3 || true) # none is the good case
	[ -z "$_keys" ] || { echo "private key in: $_keys"; return 1; }
}

run_lintian() {
	_debs=
	for _p in $PACKAGES; do
		_debs="$_debs $(deb "$_p")"
	done
	# The checks for embedded copies of JavaScript and PHP libraries took 54
	# of the 80 s lintian's checks spent on the 28k-file source tree, which
	# holds C headers, Makefiles and kbuild's scripts.
	# shellcheck disable=SC2086 # paths without spaces
	lintian --tag-display-limit 0 \
		-X languages/javascript/embedded,languages/php/embedded,languages/php/pear/embedded \
		$_debs > "$W/lintian" 2>&1 || true # judged by its E: lines below
	! grep -q '^E: ' "$W/lintian" || { grep '^E: ' "$W/lintian" | head -n 5; return 1; }
}

# build_module FLAVOUR NAME: against the trees unpacked from the packages
build_module() {
	_rel=$KVER-$1
	rm -rf "$W/mod"
	cp -r "$TOP/tests/modules/$2" "$W/mod"
	make -C "$W/root/usr/src/linux-kbuild-$_rel" M="$W/mod" > "$W/mod.log" 2>&1 || { tail -n 5 "$W/mod.log"; return 1; }
	[ "$(modinfo -F vermagic "$W/mod/$2.ko" | cut -d' ' -f1)" = "$_rel" ] || { echo "wrong vermagic"; return 1; }
}

test_version() {
	KVER=$1
	FLAVOURS=$(find "$DEBS" -maxdepth 1 -name "linux-kbuild-$KVER-*.deb" | sed "s:.*/linux-kbuild-$KVER-\([^_]*\)_.*:\1:" | sort -u)
	PACKAGES="linux-kbuild-source-$KVER"
	echo "# kernel $KVER, flavours: $(echo "$FLAVOURS" | tr '\n' ' ')"
	for _f in $FLAVOURS; do
		for _p in "linux-image-$KVER-$_f" "linux-kbuild-$KVER-$_f"; do
			if [ -n "$(deb "$_p")" ]; then
				PACKAGES="$PACKAGES $_p"
				ktap_ok "$KVER: $_p built"
			else
				ktap_fail "$KVER: $_p built" "no ${_p}_*.deb in $DEBS"
			fi
		done
		ktap_check "$KVER-$_f: image contents" check_image "$_f"
		ktap_check "$KVER-$_f: kbuild contents and relations" check_kbuild "$_f"
	done
	ktap_check "$KVER: source tree contents" check_srctree
	ktap_check "$KVER: no file in two packages" check_no_file_twice
	unpack_all
	ktap_check "$KVER: no build path in shipped files" check_no_build_paths
	ktap_check "$KVER: no private key" check_no_private_key
	for _f in $FLAVOURS; do
		for _m in kbs_plain kbs_private; do
			ktap_check "$KVER-$_f: $_m builds against the unpacked packages" build_module "$_f" "$_m"
		done
	done
	if [ "${KBS_LINTIAN:-1}" = 1 ]; then
		ktap_check "$KVER: lintian reports no error" run_lintian
		grep -E '^[EWI]: ' "$W/lintian" | sed 's/^/# lintian: /'
	else
		ktap_skip "$KVER: lintian" "KBS_LINTIAN=0"
	fi
}

main() {
	DEBS=${1:-$OUT/debs}
	need_cmd dpkg-deb dpkg
	need_cmd lintian lintian
	_versions=$(find "$DEBS" -maxdepth 1 -name 'linux-kbuild-source-*_all.deb' 2>/dev/null |
		sed 's:.*/linux-kbuild-source-\([^_]*\)_.*:\1:' | sort -u)
	[ -n "$_versions" ] || die "no linux-kbuild-source-*.deb in $DEBS: run ./build-kernel.sh first"
	trap cleanup EXIT
	W=$(mktemp -d)
	for _v in $_versions; do
		test_version "$_v"
	done
	ktap_summary
}

main "$@"
