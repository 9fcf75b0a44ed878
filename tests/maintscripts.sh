#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/maintscripts.sh - the packages' maintainer scripts, run for real by
# dpkg in a chroot: a copy of qemu-test's cached Debian 12 root filesystem.
#
# Usage: tests/maintscripts.sh [DEBDIR]     (default: out/debs)
#
# Covers: the kbuild package without the image builds a module with make
# M= and dkms build -k, with the kernel's compiler; install in both orders
# (the kbuild package alone has the /lib/modules/<rel> build and source
# links), reinstall, removal of each
# package, an upgrade to a higher package version, a kbuild package of
# another build refused beside the image (Breaks), purge leaving no file
# behind, links of no package replaced by the package's own, the
# /etc/kernel hook directories with their arguments (also
# when the shell that runs dpkg has KDEB_HOOKDIR set), a failing hook that
# fails the configuration until it is fixed and dpkg --configure -a
# completes, and qemu-test/check-tree failing, with a clear message, on a
# kbuild package without Module.symvers and on one with a wrong source
# link.
# Nothing is booted or loaded: dpkg only unpacks and configures.
#
# Environment: KBS_OUT (default out/), KBS_FLAVOUR (default qemu, or the
# version's first flavour when it has no qemu one).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=lib/host.sh
. "$TOP/lib/host.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"
# shellcheck source=tests/maintscripts/lib.sh
. "$TOP/tests/maintscripts/lib.sh"

OUT=${KBS_OUT:-$TOP/out}

# --- cases ---------------------------------------------------------------

# kbuild_alone_builds: with only the source tree, host programs and object
# tree installed (a build server, a container: no image), "make -C
# /lib/modules/<rel>/build M=" and "dkms build -k <rel>" build their
# modules, with the kernel's own compiler (no "compiler differs")
kbuild_alone_builds() {
	dpkg_do -i "/debs/${SOURCE##*/}" "/debs/${HOSTPROGS##*/}" "/debs/${KBUILD##*/}" || return 1
	[ ! -e "$R/boot/vmlinuz-$REL" ] || { echo "the image is installed"; return 1; }
	rm -rf "$R/tmp/kbs_plain"
	cp -r "$TOP/tests/modules/kbs_plain" "$R/tmp/"
	with_proc in_root make -C "/lib/modules/$REL/build" M=/tmp/kbs_plain modules > "$R/tmp/out" 2>&1 ||
		{ tail -n 5 "$R/tmp/out"; return 1; }
	[ -f "$R/tmp/kbs_plain/kbs_plain.ko" ] || { echo "make built no kbs_plain.ko"; return 1; }
	! grep -A 2 'compiler differs' "$R/tmp/out" || return 1
	rm -rf "$R/usr/src/kbs_dkms-1.0"
	cp -r "$TOP/tests/modules/kbs_dkms" "$R/usr/src/kbs_dkms-1.0"
	with_proc in_root dkms build -m kbs_dkms -v 1.0 -k "$REL" > "$R/tmp/out" 2>&1 ||
		{ tail -n 5 "$R/tmp/out"; cat "$R/var/lib/dkms/kbs_dkms/1.0/build/make.log" 2>/dev/null | tail -n 5; return 1; }
	_ko=$(find "$R/var/lib/dkms/kbs_dkms/1.0/$REL" -name 'kbs_dkms.ko*' | head -n 1)
	[ -n "$_ko" ] || { echo "dkms build made no kbs_dkms.ko for $REL"; return 1; }
	! grep -A 2 'compiler differs' "$R/var/lib/dkms/kbs_dkms/1.0/build/make.log" || return 1
	echo "# dkms build -k $REL without the image: ${_ko#"$R"}"
	in_root dkms remove -m kbs_dkms -v 1.0 --all > "$R/tmp/out" 2>&1 || { tail -n 3 "$R/tmp/out"; return 1; }
	rm -rf "$R/usr/src/kbs_dkms-1.0" "$R/tmp/kbs_plain"
}

# kbuild_then_image: the kbuild package alone has the build and source
# links (headers without the image), and nothing else in /lib/modules/<rel>
kbuild_then_image() {
	dpkg_do -i "/debs/${SOURCE##*/}" "/debs/${HOSTPROGS##*/}" "/debs/${KBUILD##*/}" || return 1
	links_ours && only_links || return 1
	dpkg_do -i "/debs/${IMAGE##*/}" && links_ours
}

# only_links: /lib/modules/<rel> holds the kbuild package's links alone
only_links() {
	_left=$(cd "$R/lib/modules/$REL" && ls -A | tr '\n' ' ')
	[ "$_left" = "build source " ] || { echo "/lib/modules/$REL holds: $_left"; return 1; }
}

hooks_ran() {
	for _want in "preinst.d $REL /boot/vmlinuz-$REL" "postinst.d $REL /boot/vmlinuz-$REL" \
		"header_postinst.d $REL"; do
		grep -qxF "$_want" "$R/tmp/hooks.log" || { echo "no hook call '$_want'"; return 1; }
	done
	[ -f "$R/lib/modules/$REL/modules.dep" ] || { echo "depmod did not run"; return 1; }
}

reinstall() {
	dpkg_do -i "/debs/${IMAGE##*/}" "/debs/${KBUILD##*/}" && links_ours || return 1
	! grep -q warning "$R/tmp/out" || { grep warning "$R/tmp/out"; return 1; }
}

remove_kbuild() {
	dpkg_do -r "linux-kbuild-$REL" && links_gone && [ -f "$R/lib/modules/$REL/modules.order" ]
}

remove_image() {
	dpkg_do -i "/debs/${KBUILD##*/}" && links_ours || return 1
	: > "$R/tmp/hooks.log"
	dpkg_do -r "linux-image-$REL" || return 1
	links_ours && only_links || return 1
	grep -qxF "postrm.d $REL /boot/vmlinuz-$REL" "$R/tmp/hooks.log" || { echo "postrm.d not run"; return 1; }
	grep -qxF "prerm.d $REL /boot/vmlinuz-$REL" "$R/tmp/hooks.log" || { echo "prerm.d not run"; return 1; }
}

image_then_kbuild() {
	dpkg_do -i "/debs/${IMAGE##*/}" && links_ours
}

# no_dangling_initrd: linux-update-symlinks linked no initramfs that is not
# there (our flavours boot without one: the image says INITRD=No)
no_dangling_initrd() {
	for _l in initrd.img initrd.img.old; do
		if [ -L "$R/$_l" ] && ! [ -e "$R/$(readlink "$R/$_l" | sed 's:^/::')" ]; then
			echo "/$_l -> $(readlink "$R/$_l") does not exist"
			return 1
		fi
	done
}

upgrade() {
	mkdir -p "$R/debs/up"
	for _d in "$SOURCE" "$HOSTPROGS" "$KBUILD" "$IMAGE"; do
		bump_deb "$_d" +up1 "$R/debs/up" > /dev/null
	done
	in_root dpkg-query -L "linux-kbuild-$REL" "linux-image-$REL" | sort > "$R/tmp/files-old"
	: > "$R/tmp/hooks.log"
	# with apt, as a user upgrades (README): image and kbuild break each
	# other's other versions, which apt orders and dpkg -i alone does not
	in_root DEBIAN_FRONTEND=noninteractive sh -c 'apt-get install -y -q /debs/up/*.deb' > "$R/tmp/out" 2>&1 ||
		{ tail -n 5 "$R/tmp/out"; return 1; }
	links_ours || return 1
	in_root dpkg-query -L "linux-kbuild-$REL" "linux-image-$REL" | sort > "$R/tmp/files-new"
	cmp -s "$R/tmp/files-old" "$R/tmp/files-new" || { echo "file lists differ after the upgrade"; return 1; }
	grep -qxF "postinst.d $REL /boot/vmlinuz-$REL" "$R/tmp/hooks.log" || { echo "postinst.d not run on upgrade"; return 1; }
	[ -f "$R/lib/modules/$REL/modules.dep" ] || { echo "modules.dep lost in the upgrade"; return 1; }
}

# kbuild_of_another_build: after the upgrade, the kbuild package of the
# earlier build beside the upgraded image is refused (Breaks), and both
# stay at the upgrade's version
kbuild_of_another_build() {
	if dpkg_do -i "/debs/${KBUILD##*/}" 2>/dev/null; then
		echo "dpkg took linux-kbuild-$REL of another build beside linux-image-$REL"
		return 1
	fi
	grep -q "breaks linux-image-$REL" "$R/tmp/out" || { tail -n 3 "$R/tmp/out"; echo "not refused for Breaks"; return 1; }
	for _p in "linux-image-$REL" "linux-kbuild-$REL"; do
		_v=$(in_root dpkg-query -W -f='${Version} ${Status}' "$_p")
		[ "$_v" = "$(dpkg-deb -f "$IMAGE" Version)+up1 install ok installed" ] || { echo "$_p is now $_v"; return 1; }
	done
}

purge_all() {
	dpkg_do --purge "linux-image-$REL" "linux-kbuild-$REL" "linux-kbuild-hostprogs-$REL" "linux-kbuild-source-$ABINAME" || return 1
	snapshot > "$R/tmp/after"
	_diff=$(diff "$R/tmp/before" "$R/tmp/after" | grep '^[<>]' | head -n 5 || true) # empty is the good case
	[ -z "$_diff" ] || { echo "files differ after purge: $_diff"; return 1; }
}

# install_all [KBUILD]: image and kbuild (default: the built one), and the
# source tree and host programs unless they are installed already (dpkg -i
# would unpack the source tree's 28k files again for nothing)
install_all() {
	set -- "/debs/${1:-${KBUILD##*/}}" "/debs/${IMAGE##*/}"
	[ "$(in_root dpkg-query -W -f='${Status}' "linux-kbuild-source-$ABINAME" 2>/dev/null)" = "install ok installed" ] ||
		set -- "/debs/${SOURCE##*/}" "/debs/${HOSTPROGS##*/}" "$@"
	dpkg_do -i "$@"
}

# hookdir_from_build: a KDEB_HOOKDIR in the shell that runs dpkg changes
# nothing: the hook directories were fixed when the packages were built
hookdir_from_build() {
	: > "$R/tmp/hooks.log"
	set -- "/debs/${SOURCE##*/}" "/debs/${HOSTPROGS##*/}" "/debs/${KBUILD##*/}" "/debs/${IMAGE##*/}"
	in_root KDEB_HOOKDIR=/nonexistent dpkg -i "$@" > "$R/tmp/out" 2>&1 || { tail -n 5 "$R/tmp/out"; return 1; }
	hooks_ran || return 1
	dpkg_do --purge "linux-image-$REL" "linux-kbuild-$REL"
}

# foreign_links_replaced: links of no package there (a dangling one, one to
# another tree) are dpkg's to replace: the package's own take their place
foreign_links_replaced() {
	mkdir -p "$R/lib/modules/$REL"
	ln -s /nonexistent/tree "$R/lib/modules/$REL/build"
	ln -s /usr/share "$R/lib/modules/$REL/source"
	install_all && links_ours && dpkg_do --purge "linux-image-$REL" "linux-kbuild-$REL" || return 1
	[ ! -e "$R/lib/modules/$REL" ] || { echo "left: $(find "$R/lib/modules/$REL" | head -n 3)"; return 1; }
}

failing_hook() {
	printf '#!/bin/sh\nexit 3\n' > "$R/etc/kernel/postinst.d/zz-kbs-broken"
	chmod 755 "$R/etc/kernel/postinst.d/zz-kbs-broken"
	if install_all; then
		echo "image configured although a hook failed"
		return 1
	fi
	grep -q 'zz-kbs-broken' "$R/tmp/out" || { echo "failure does not name the hook"; return 1; }
	rm "$R/etc/kernel/postinst.d/zz-kbs-broken"
	dpkg_do --configure -a || return 1
	[ "$(in_root dpkg-query -W -f='${Status}' "linux-image-$REL")" = "install ok installed" ] &&
		links_ours
}

# dkms_recommends_met: with the flavour's linux-kbuild metapackage
# installed, apt would install dkms with its recommendations
# (linux-headers-amd64 | ... | linux-headers) without any Debian kernel
# headers; without it, it would (the control: this test can fail)
dkms_recommends_met() {
	cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true # a local mirror needs none
	debian_sources > "$R/etc/apt/sources.list"
	in_root apt-get update -qq > "$R/tmp/out" 2>&1 || { tail -n 3 "$R/tmp/out"; return 1; }
	dpkg_do -r dkms || return 1
	in_root apt-get -s install dkms > "$R/tmp/sim-without" 2>&1 || { tail -n 3 "$R/tmp/sim-without"; return 1; }
	grep -q '^Inst linux-headers-' "$R/tmp/sim-without" ||
		{ echo "without our packages apt-get -s install dkms pulls no linux-headers: the check cannot tell"; return 1; }
	install_all || return 1
	cp "$META" "$R/debs/"
	dpkg_do -i "/debs/${META##*/}" || return 1
	in_root apt-get -s install dkms > "$R/tmp/sim-with" 2>&1 || { tail -n 3 "$R/tmp/sim-with"; return 1; }
	! grep -E '^Inst linux-(headers|image)-' "$R/tmp/sim-with" ||
		{ echo "apt-get -s install dkms pulls Debian's kernel packages beside ${META##*/}"; return 1; }
	echo "# without ${META##*/}, apt-get -s install dkms installs: $(grep '^Inst linux-' "$R/tmp/sim-without" | cut -d' ' -f2 | tr '\n' ' ')"
	dpkg_do --purge "$(dpkg-deb -f "$META" Package)" "linux-image-$REL" "linux-kbuild-$REL"
}

missing_symvers_detected() {
	break_kbuild no-symvers.deb sh -c 'rm Module.symvers && sed -i "/Module.symvers/d" ../../../DEBIAN/md5sums'
	detects no-symvers.deb "Module.symvers missing"
}

wrong_source_link_detected() {
	break_kbuild wrong-source.deb ln -sfn ../linux-kbuild-source-0.0 source
	detects wrong-source.deb "source"
}

# test_version SERIES: every case for the FLAVOUR packages of SERIES' build
test_version() {
	pick_debs "$1"
	META=$(manifest_get "$DEBS" file series="$1" kind=meta-kbuild flavour="$FLAVOUR" arch="$BUILD_ARCH") || exit 1
	cleanup
	prepare_root
	echo "# maintainer scripts of $REL in a chroot"
	for _case in kbuild_alone_builds kbuild_then_image hooks_ran reinstall remove_kbuild remove_image image_then_kbuild \
		no_dangling_initrd upgrade kbuild_of_another_build purge_all hookdir_from_build \
		foreign_links_replaced failing_hook missing_symvers_detected wrong_source_link_detected \
		dkms_recommends_met; do
		ktap_check "maintscripts $ABINAME: $(echo "$_case" | tr _ ' ')" "$_case"
	done
	# what qemu-test's tree check says of the broken packages
	cat "$R/tmp/broken.log" 2>/dev/null || true # absent when those cases failed early
}

main() {
	run_per_series test_version "$@"
}

main "$@"
