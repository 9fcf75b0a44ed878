# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/maintscripts/lib.sh: the chroot of tests/maintscripts.sh and the
# helpers its cases share.  Sourced by tests/maintscripts.sh, which sets
# TOP, OUT, R, REL, ABINAME and the .debs (IMAGE, KBUILD, SOURCE, HOSTPROGS).

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
	"$TOP/qemu-test/run" --prepare > "$OUT/logs/maintscripts-prepare.log" 2>&1 ||
		die "qemu-test/run --prepare failed; see $OUT/logs/maintscripts-prepare.log"
	_cached=$(ls -dt "$OUT"/qemu/rootfs-"$BUILD_ARCH"-*/.kbs-rootfs-done 2>/dev/null | head -n 1)
	[ -n "$_cached" ] || die "no cached root filesystem under $OUT/qemu"
	R=$(mktemp -d "$OUT/maintscripts.XXXXXX")
	cp -a "$(dirname "$_cached")/." "$R/"
	mkdir -p "$R/debs" "$R/tmp"
	cp "$IMAGE" "$KBUILD" "$SOURCE" "$HOSTPROGS" "$R/debs/"
	# The root is thrown away: spare dpkg's fsync of each of the source
	# tree's 28k files, which made this suite take minutes.
	printf 'force-unsafe-io\n' > "$R/etc/dpkg/dpkg.cfg.d/kbs-unsafe-io"
	for _d in preinst.d postinst.d prerm.d postrm.d header_postinst.d; do
		mkdir -p "$R/etc/kernel/$_d"
		printf '#!/bin/sh\necho "%s $*" >> /tmp/hooks.log\n' "$_d" > "$R/etc/kernel/$_d/zz-kbs-record"
		chmod 755 "$R/etc/kernel/$_d/zz-kbs-record"
	done
	snapshot > "$R/tmp/before"
}
