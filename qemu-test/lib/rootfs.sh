# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# qemu-test/lib/rootfs.sh: the guest's root filesystem, of the target
# suite SUITE (bookworm, trixie), made once per suite, architecture and
# package list and cached, and the disk image of one run.  Sourced by
# qemu-test/run.
#
# An architecture this machine runs natively is debootstrapped here.
# Another one (arches/<arch>: "debootstrap foreign") is debootstrapped
# --foreign here, which only downloads and unpacks, and finished in a
# guest of its own architecture: the guest runs debootstrap's second
# stage and writes its root as a tar archive onto its results disk, which
# becomes the cached root filesystem.  No binfmt handler is needed.

# Bump when the rootfs recipe below changes, so cached root filesystems are rebuilt.
ROOTFS_RECIPE=2

# list_packages: the guest's package list for SUITE: the lines that name
# no suite or SUITE, comments and blank lines dropped.
list_packages() {
	data_lines "$HERE/packages" | awk -v s="$SUITE" 'NF == 1 || $2 == s { print $1 }'
}

rootfs_key() {
	{
		printf 'recipe %s suite %s arch %s\n' "$ROOTFS_RECIPE" "$SUITE" "$1"
		list_packages | sort
	} | sha256sum | cut -c 1-12
}

# configure_rootfs DIR: what the guest needs beyond debootstrap; no init system.
configure_rootfs() {
	printf 'kbs-guest\n' >"$1/etc/hostname"
	printf '127.0.0.1\tlocalhost kbs-guest\n' >"$1/etc/hosts"
	printf 'LABEL=kbs-root\t/\text4\tdefaults\t0\t1\n' >"$1/etc/fstab"
	rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*
	mkdir -p "$1/etc/kernel/postinst.d" "$1/etc/kernel/header_postinst.d"
}

# make_rootfs ARCH [KERNEL]: ROOTFS, the cached root filesystem of ARCH,
# made by one run at a time (tests/run runs suites beside each other);
# a foreign one is finished by booting KERNEL
make_rootfs() {
	local key
	key=$(rootfs_key "$1")
	ROOTFS=$CACHE/rootfs-$1-$key
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.rootfs-$1.lock"
	flock 9
	if [ -f "$ROOTFS/.kbs-rootfs-done" ]; then
		log "reusing root filesystem $ROOTFS"
		TIMINGS+=("debootstrap $1: 0 s (cached rootfs-$1-$key)")
	else
		build_rootfs "$@"
	fi
	exec 9>&-
}

# debootstrap_into DIR ARCH [--foreign]
debootstrap_into() {
	local mirror
	mirror=$(find_mirror)
	log "debootstrap $SUITE ($2${3:+, $3}) from $mirror into $1 (log: $OUTQ/debootstrap-$2.log)"
	if ! timeout "$(read_timeout debootstrap)" debootstrap --variant=minbase --arch="$2" ${3:+"$3"} \
		--include="$(list_packages | paste -s -d ,)" \
		"$SUITE" "$1" "$mirror" >"$OUTQ/debootstrap-$2.log" 2>&1; then
		tail -n 5 "$OUTQ/debootstrap-$2.log" >&2
		die "debootstrap failed, see $OUTQ/debootstrap-$2.log (mirror $mirror; set KBS_MIRROR to change it)"
	fi
}

# build_rootfs ARCH [KERNEL]
build_rootfs() {
	local dest=$ROOTFS tmp=$ROOTFS.tmp start
	rm -rf "$tmp" "$tmp.first"
	start=$(now)
	case $(data_value "$HERE/arches/$1" debootstrap) in
	native)
		debootstrap_into "$tmp" "$1"
		;;
	foreign)
		[ -n "${2:-}" ] || die "the $1 root filesystem is finished in a guest: it needs a kernel"
		debootstrap_into "$tmp.first" "$1" --foreign
		second_stage "$tmp.first" "$tmp" "$2"
		# (its guest booted the first stage as ROOTFS)
		ROOTFS=$dest
		rm -rf "$tmp.first"
		;;
	*)
		die "qemu-test/arches/$1: debootstrap must be native or foreign"
		;;
	esac
	configure_rootfs "$tmp"
	touch "$tmp/.kbs-rootfs-done"
	mv "$tmp" "$ROOTFS"
	record_time "debootstrap $1" "$start"
}

# second_stage FIRST DEST KERNEL: boot KERNEL on the first stage's tree;
# the guest's root, as the tar archive it wrote, unpacked into DEST
second_stage() {
	local archive=$OUTQ/results-second-stage.raw
	# debootstrap --foreign leaves /proc a link to the host's; the guest
	# mounts its own there
	if [ -L "$1/proc" ]; then
		rm "$1/proc"
		mkdir "$1/proc"
	fi
	ROOTFS=$1
	make_image
	choose_accel "$3"
	new_results_disk second-stage 4G
	run_qemu second-stage second-stage "$3" rw
	mkdir -p "$2"
	tar -C "$2" -xf "$archive" 2>"$OUTQ/second-stage-tar.log" && [ -x "$2/usr/bin/dpkg" ] ||
		die "debootstrap's second stage failed in the guest (qemu status $BOOT_STATUS); see $OUTQ/console-second-stage.log"
	rm -f "$archive"
}

# stage_tree: the image's contents: the root filesystem (hard-linked, not
# copied), the harness under /kbs, the test modules and keys, the .debs, the
# modules cross-built on the host and the hook recorders.
stage_tree() {
	local kbs=$STAGING/root/kbs d i
	cp -al "$ROOTFS" "$STAGING/root" 2>/dev/null || {
		rm -rf "$STAGING/root"
		cp -a "$ROOTFS" "$STAGING/root"
	}
	rm -f "$STAGING/root/.kbs-rootfs-done"
	mkdir -p "$kbs/lib" "$kbs/qemu-test" "$kbs/modules" "$kbs/debs" "$kbs/cross"
	# the guest runs the packaging library alone (messages, data files)
	cp "$TOP/lib/kbuild-split.sh" "$kbs/lib/"
	cp -r "$HERE/guest" "$HERE/steps" "$HERE/phases" "$HERE/steps.sh" "$HERE/check-tree" \
		"$HERE/timeouts" "$kbs/qemu-test/"
	for d in "$TOP"/tests/modules/*/; do
		cp -r "${d%/}" "$kbs/modules/"
	done
	# the tests' signing keys (tests/keys/README)
	cp -r "$TOP/tests/keys" "$kbs/keys"
	for i in "${!DEBS[@]}"; do
		mkdir -p "$kbs/debs/${DEB_GROUPS[i]}"
		cp "${DEBS[i]}" "$kbs/debs/${DEB_GROUPS[i]}/"
	done
	# the groups the guest uses as apt repositories
	for d in "$kbs"/debs/abi*/; do
		[ ! -d "$d" ] || (cd "$d" && dpkg-scanpackages --multiversion . >Packages 2>/dev/null)
	done
	[ ! -d "$WORK/cross" ] || cp "$WORK"/cross/*.ko "$kbs/cross/" 2>/dev/null || true # none when the cross build failed
	write_guest_env "$kbs/env"
	mkdir -p "$STAGING/root/etc/kernel/postinst.d" "$STAGING/root/etc/kernel/header_postinst.d"
	for d in postinst.d header_postinst.d; do
		cp "$HERE/guest/record-hook" "$STAGING/root/etc/kernel/$d/zz-kbs-record"
	done
	# The disk is thrown away after the run: spare dpkg's fsync per file, slow on TCG.
	mkdir -p "$STAGING/root/etc/dpkg/dpkg.cfg.d"
	printf 'force-unsafe-io\n' >"$STAGING/root/etc/dpkg/dpkg.cfg.d/kbs-unsafe-io"
	chmod -R a+rX "$kbs"
}

# debs_installed_mib: what the staged packages take once unpacked (their
# Installed-Size, or four times the .deb without one).
debs_installed_mib() {
	local f size kib=0
	for f in "${DEBS[@]}"; do
		size=$(dpkg-deb -f "$f" Installed-Size)
		kib=$((kib + ${size:-$(($(du -k "$f" | cut -f 1) * 4))}))
	done
	printf '%s\n' $((kib / 1024))
}

# make_image: an ext4 disk image of the staged tree, without loop devices.
make_image() {
	local start used size
	start=$(now)
	STAGING=$(mktemp -d "$OUTQ/staging.XXXXXX")
	stage_tree
	used=$(du -sm "$STAGING/root" | cut -f 1)
	size=$((used + used / 4 + 2 * $(debs_installed_mib) + 1024))
	rm -f "$IMAGE"
	mke2fs -q -F -t ext4 -L kbs-root -d "$STAGING/root" "$IMAGE" "${size}M" >/dev/null ||
		die "mke2fs -d failed for $IMAGE"
	rm -rf "$STAGING"
	STAGING=
	record_time "image build (${size} MiB)" "$start"
}
