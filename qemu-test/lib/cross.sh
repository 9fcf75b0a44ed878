# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# qemu-test/lib/cross.sh: the "cross-modules" preparation of a scenario:
# the test modules cross-built on this machine for the guest's
# architecture, the way a user does it: in a chroot of this machine's
# architecture (a copy of its cached guest root filesystem), "dpkg
# --add-architecture <arch>" and apt-get install of the flavour's
# linux-kbuild from a local repository beside Debian's mirror, which
# brings the host programs built for this machine (linux-kbuild-hostprogs,
# Multi-Arch: foreign), the shared source tree and the cross compiler;
# then make -C <object tree> ARCH= CROSS_COMPILE= M=$PWD.  The modules go
# to /kbs/cross in the guest, which loads them (step cross-load).
# Sourced by qemu-test/run.

CROSS_MODULES="kbs_plain kbs_private"
CROSS_ROOT=

# cross_checks: how many checks prepare_cross_modules reports
cross_checks() {
	set -- $CROSS_MODULES
	echo $(($# + 1))
}

cross_cleanup() {
	if [ -n "$CROSS_ROOT" ]; then
		umount "$CROSS_ROOT/proc" 2>/dev/null || true # not mounted when setup failed early
		rm -rf "$CROSS_ROOT"
	fi
}

in_cross_root() {
	chroot "$CROSS_ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive HOME=/root "$@"
}

# cross_install ROOTFS: the chroot, the repository, apt-get install
# linux-kbuild-REL:ARCH (in a subshell of ktap_check: state is files)
cross_install() {
	local native f
	native=$(dpkg --print-architecture)
	cp -a "$1/." "$CROSS_ROOT/"
	mkdir -p "$CROSS_ROOT/kbs-repo"
	# the packages of both architectures, as an archive holds them
	cp "${DEBS[@]}" "$CROSS_ROOT/kbs-repo/"
	f=$(manifest_get "$DEBS_DIR" file abiname="$KBS_ABINAME" kind=hostprogs flavour="$FLAVOUR" arch="$native") ||
		{ echo "build the $native packages too"; return 1; }
	cp "$f" "$CROSS_ROOT/kbs-repo/"
	mount -t proc proc "$CROSS_ROOT/proc"
	cp /etc/resolv.conf "$CROSS_ROOT/etc/resolv.conf" 2>/dev/null || true # a local mirror needs none
	{
		debian_sources "$SUITE"
		printf 'deb [trusted=yes] file:/kbs-repo ./\n'
	} >"$CROSS_ROOT/etc/apt/sources.list"
	(cd "$CROSS_ROOT/kbs-repo" && dpkg-scanpackages --multiversion . >Packages 2>/dev/null) || return
	in_cross_root dpkg --add-architecture "$GUEST_ARCH" || return
	timeout "$(read_timeout cross-chroot)" sh -c '
		chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 apt-get update -qq &&
		chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends "linux-kbuild-$2:$3"' \
		sh "$CROSS_ROOT" "$KBS_REL" "$GUEST_ARCH" >"$OUTQ/cross-apt.log" 2>&1 ||
		{ tail -n 5 "$OUTQ/cross-apt.log"; echo "apt-get install linux-kbuild-$KBS_REL:$GUEST_ARCH failed, see $OUTQ/cross-apt.log"; return 1; }
	# what apt chose: the host programs of this machine's architecture
	in_cross_root dpkg-query -W -f '${Package}:${Architecture} ${Version}\n' \
		"linux-kbuild-$KBS_REL" "linux-kbuild-hostprogs-$KBS_REL" "linux-kbuild-source-$KBS_ABINAME" |
		sed 's/^/# installed: /'
	in_cross_root dpkg-query -W -f '${Architecture}' "linux-kbuild-hostprogs-$KBS_REL" | grep -qx "$native" ||
		{ echo "linux-kbuild-hostprogs-$KBS_REL is not the $native build"; return 1; }
}

# cross_build MODULE: make -C the object tree ARCH= CROSS_COMPILE= M=
cross_build() {
	local karch triplet
	karch=$(arch_value "$GUEST_ARCH" kernel-arch)
	triplet=$(dpkg-architecture -f -a"$GUEST_ARCH" -qDEB_HOST_GNU_TYPE 2>/dev/null)
	rm -rf "$CROSS_ROOT/tmp/$1"
	cp -r "$TOP/tests/modules/$1" "$CROSS_ROOT/tmp/$1"
	in_cross_root make -C "/usr/src/linux-kbuild-$KBS_REL" ARCH="$karch" CROSS_COMPILE="$triplet-" \
		M="/tmp/$1" >"$OUTQ/cross-$1.log" 2>&1 || { tail -n 5 "$OUTQ/cross-$1.log"; return 1; }
	# built with the kernel's own (cross) compiler, which the object tree pins
	! grep -A 2 'compiler differs' "$OUTQ/cross-$1.log" || return 1
	mkdir -p "$WORK/cross"
	cp "$CROSS_ROOT/tmp/$1/$1.ko" "$WORK/cross/"
	echo "# $1.ko: $(readelf -h "$WORK/cross/$1.ko" | sed -n 's/^ *Machine: *//p')"
}

# prepare_cross_modules: the checks of the cross-modules preparation
prepare_cross_modules() {
	local m start native
	start=$(now)
	native=$(dpkg --print-architecture)
	make_rootfs "$native"
	CROSS_ROOT=$(mktemp -d "$OUTQ/cross.XXXXXX")
	ktap_check "apt-get install linux-kbuild-$KBS_REL:$GUEST_ARCH in an $native chroot (dpkg --add-architecture $GUEST_ARCH)" \
		cross_install "$ROOTFS"
	for m in $CROSS_MODULES; do
		if ! [ -d "$CROSS_ROOT/usr/src/linux-kbuild-$KBS_REL" ]; then
			ktap_skip "cross-build $m" "the packages are not installed"
			continue
		fi
		ktap_check "cross-build $m: make -C /usr/src/linux-kbuild-$KBS_REL ARCH=... CROSS_COMPILE=... M=\$PWD" \
			cross_build "$m"
	done
	cross_cleanup
	CROSS_ROOT=
	record_time "cross-build of the test modules" "$start"
}
