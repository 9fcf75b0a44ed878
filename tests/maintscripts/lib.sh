# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/maintscripts/lib.sh: the chroot of tests/maintscripts.sh and
# tests/extmod.sh, one for each series of a build, and the helpers their
# cases share.  Sourced by both, which set TOP and OUT; run_per_series
# sets DEBS and BUILD_ARCH, pick_debs REL, ABINAME, FLAVOUR and the .debs
# (IMAGE, KBUILD, SOURCE, HOSTPROGS), prepare_root R (tests/lib/root.sh).
# tests/maintscripts.sh defines install_all.

# shellcheck source=tests/lib/root.sh
. "$TOP/tests/lib/root.sh"

# run_per_series FUNC [DEBDIR]: FUNC SERIES for each series that DEBDIR's
# manifest (default out/debs) names, the chroot removed on exit, then the
# KTAP summary
run_per_series() {
	DEBS=${2:-$OUT/debs}
	BUILD_ARCH=$(dpkg --print-architecture)
	need_cmd chroot coreutils
	mkdir -p "$OUT/logs"
	trap cleanup EXIT
	_series=$(manifest_series "$DEBS") || exit 1
	for _s in $_series; do
		"$1" "$_s"
	done
	ktap_summary
}

cleanup() {
	remove_root
}

# pick_debs SERIES: the .debs of SERIES' build that the chroot takes: the
# source tree's, and those of FLAVOUR (KBS_FLAVOUR, or qemu, or the
# series' first for this machine)
pick_debs() {
	SOURCE=$(manifest_get "$DEBS" file series="$1" kind=source) || exit 1
	ABINAME=$(manifest_get "$DEBS" abiname series="$1" kind=source) || exit 1
	FLAVOUR=${KBS_FLAVOUR:-qemu}
	if [ -z "${KBS_FLAVOUR:-}" ] && ! manifest_get "$DEBS" file series="$1" kind=image flavour=qemu \
		arch="$BUILD_ARCH" > /dev/null 2>&1; then
		FLAVOUR=$(manifest_list "$DEBS" flavour series="$1" kind=image arch="$BUILD_ARCH" | head -n 1)
	fi
	[ -n "$FLAVOUR" ] || die "the manifest has no $BUILD_ARCH flavour of $1: build one"
	REL=$ABINAME-$FLAVOUR
	IMAGE=$(manifest_get "$DEBS" file series="$1" kind=image flavour="$FLAVOUR" arch="$BUILD_ARCH") || exit 1
	KBUILD=$(manifest_get "$DEBS" file series="$1" kind=kbuild flavour="$FLAVOUR" arch="$BUILD_ARCH") || exit 1
	HOSTPROGS=$(manifest_get "$DEBS" file series="$1" kind=hostprogs flavour="$FLAVOUR" arch="$BUILD_ARCH") ||
		exit 1
}

# in_root [VAR=VALUE...] CMD...: CMD in the root, with a clean environment
in_root() {
	chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"
}

# dpkg_do ARGS...: dpkg in the root, output kept in $R/tmp/out for checks
dpkg_do() {
	in_root dpkg "$@" > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
}

link_is() {
	_got=$(readlink "$R/lib/modules/$REL/$1" 2>/dev/null) || _got="(none)"
	[ "$_got" = "$2" ] || { echo "$1 -> $_got, expected $2"; return 1; }
}

links_ours() {
	link_is build "/usr/src/linux-kbuild-$REL" && link_is source "/usr/src/linux-kbuild-source-$ABINAME"
}

links_gone() {
	link_is build "(none)" && link_is source "(none)"
}

snapshot() {
	(cd "$R" && find . -xdev \( -path ./proc -o -path ./tmp -o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/log \
		-o -path ./var/cache -o -path ./debs -o -path ./var/lib/dkms \) -prune -o -print | sort)
}

prepare_root() {
	copy_root maintscripts
	mkdir -p "$R/debs" "$R/tmp"
	cp "$IMAGE" "$KBUILD" "$SOURCE" "$HOSTPROGS" "$R/debs/"
	for _d in preinst.d postinst.d prerm.d postrm.d header_postinst.d; do
		mkdir -p "$R/etc/kernel/$_d"
		printf '#!/bin/sh\necho "%s $*" >> /tmp/hooks.log\n' "$_d" > "$R/etc/kernel/$_d/zz-kbs-record"
		chmod 755 "$R/etc/kernel/$_d/zz-kbs-record"
	done
	snapshot > "$R/tmp/before"
}

# break_kbuild NAME CMD...: a copy of the kbuild .deb changed by CMD, run in
# its unpacked tree, as /debs/NAME
break_kbuild() {
	_name=$1
	shift
	rm -rf "$R/tmp/broken"
	dpkg-deb -R "$KBUILD" "$R/tmp/broken"
	(cd "$R/tmp/broken/usr/src/linux-kbuild-$REL" && "$@")
	dpkg-deb -b "$R/tmp/broken" "$R/debs/$_name" > /dev/null
}

# detects BROKEN.deb WHAT: installed, the tree check fails and says WHAT
detects() {
	install_all "$1" || return 1
	if "$TOP/qemu-test/check-tree" "$R" "$REL" > "$R/tmp/check.out" 2>&1; then
		echo "check-tree passed $1"
		return 1
	fi
	sed "s:^:# check-tree on $1\: :" "$R/tmp/check.out" >> "$R/tmp/broken.log"
	grep -q "$2" "$R/tmp/check.out" || { echo "check-tree did not say '$2'"; return 1; }
	dpkg_do --purge "linux-image-$REL" "linux-kbuild-$REL"
}
