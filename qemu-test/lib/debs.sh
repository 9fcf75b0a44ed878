# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# qemu-test/lib/debs.sh: which .debs a scenario stages in the guest
# (/kbs/debs/<group>/), and what the guest is told of them (/kbs/env).
# Sourced by qemu-test/run.

# newest_deb PATTERN: the highest-versioned file in DEBS_DIR matching PATTERN.
newest_deb() {
	local f
	for f in "$DEBS_DIR"/$1; do
		if [ -f "$f" ]; then
			printf '%s\n' "$f"
		fi
	done | sort -V | tail -n 1
}

# release_debs REL ABI: the image, kbuild and host programs packages of REL
# (those of the guest's architecture) and the source package of ABI, newest
# versions, into DEB_IMAGE, DEB_KBUILD, DEB_HOSTPROGS, DEB_SOURCE.
release_debs() {
	local hint="build them first (./build-kernel.sh), or point --debs at the directory holding them" v
	for v in IMAGE:linux-image KBUILD:linux-kbuild HOSTPROGS:linux-kbuild-hostprogs; do
		printf -v "DEB_${v%%:*}" '%s' "$(newest_deb "${v#*:}-${1}_*_$GUEST_ARCH.deb")"
		[ -n "$(eval "echo \$DEB_${v%%:*}")" ] || die "no ${v#*:}-${1}_*_$GUEST_ARCH.deb in $DEBS_DIR; $hint"
	done
	DEB_SOURCE=$(newest_deb "linux-kbuild-source-${2}_*_all.deb")
	[ -n "$DEB_SOURCE" ] || die "no linux-kbuild-source-${2}_*_all.deb in $DEBS_DIR; $hint"
}

# newest_release KVER FLAVOUR: the release of the newest linux-image-KVER.*-FLAVOUR
# of the guest's architecture
newest_release() {
	local deb pattern="linux-image-${1:+$1.}*${2:+-$2}_*_$GUEST_ARCH.deb"
	deb=$(newest_deb "$pattern")
	[ -n "$deb" ] || die "no $pattern in $DEBS_DIR;" \
		"build it first (./build-kernel.sh${1:+ --kernel $1}), or point --debs elsewhere"
	dpkg-deb -f "$deb" Package | sed 's/^linux-image-//'
}

# abi_of REL: 6.1.192-1 of 6.1.192-1-qemu
abi_of() {
	printf '%s\n' "$1" | cut -d- -f1,2
}

# add_debs GROUP FILE...: stage FILEs under /kbs/debs/GROUP
add_debs() {
	local group=$1 f
	shift
	for f in "$@"; do
		DEBS+=("$f")
		DEB_GROUPS+=("$group")
	done
}

# select_release: the flavour's release and its four packages
select_release() {
	[ -d "$DEBS_DIR" ] || die "no directory $DEBS_DIR; build the packages first, or point --debs at them"
	KBS_REL=$(newest_release "$KVER" "$FLAVOUR")
	KBS_ABI=$(abi_of "$KBS_REL")
	KBS_KVER=${KBS_REL%%-*}
	release_debs "$KBS_REL" "$KBS_ABI"
	log "testing $KBS_REL: ${DEB_IMAGE##*/} ${DEB_KBUILD##*/} ${DEB_HOSTPROGS##*/} ${DEB_SOURCE##*/}"
}

# select_debs_plain: the release's four packages, group "main"
select_debs_plain() {
	select_release
	add_debs main "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
}

# select_debs_lifecycle: the main release's four packages, the twin
# flavour's image, kbuild and host programs, all seven rebuilt with a
# higher version (an upgrade rebuilds every flavour), and the other
# series' four; DEB_* are left at the main release's.
select_debs_lifecycle() {
	local main twin other other_abi up=$WORK/up f
	select_release
	main=("$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE")
	twin=$KBS_ABI-$TWIN_FLAVOUR
	other=$(newest_release "$OTHER_KVER" "$OTHER_FLAVOUR")
	other_abi=$(abi_of "$other")
	[ "${other%%-*}" != "$KBS_KVER" ] ||
		die "the lifecycle tests $KBS_REL beside $OTHER_KVER: set KBS_KVER to another series, e.g. KBS_KVER=6.1"
	add_debs main "${main[@]}"
	release_debs "$twin" "$KBS_ABI"
	add_debs twin "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS"
	mkdir -p "$up"
	for f in "${main[@]}" "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS"; do
		add_debs up "$(bump_deb "$f" +up1 "$up")"
	done
	release_debs "$other" "$other_abi"
	add_debs other "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
	add_meta_repos "$other"
	DEB_IMAGE=${main[0]} DEB_KBUILD=${main[1]} DEB_HOSTPROGS=${main[2]} DEB_SOURCE=${main[3]}
	# shellcheck disable=SC2034 # read through GUEST_ENV (write_guest_env, step names)
	KBS_TWIN_REL=$twin KBS_OTHER_REL=$other KBS_OTHER_ABI=$other_abi \
		KBS_UP_VERSION="$(dpkg-deb -f "$DEB_IMAGE" Version)+up1"
	GUEST_ENV+=(KBS_TWIN_REL KBS_OTHER_REL KBS_OTHER_ABI KBS_UP_VERSION)
	log "lifecycle of $KBS_REL beside $twin and $other, then the ABI upgrade of $other to $KBS_META_REL2"
}

# add_meta_repos REL: apt repositories /kbs/debs/abi1 and abi2 (stage_tree
# indexes them) of REL's series and flavour: its metapackages with REL's
# packages, and those of a build with the next ABI, from KBS_ABI2_DEBS
# (default $KBS_OUT/abi2/debs).  DEB_* are left at the second's.
add_meta_repos() {
	local flavour=${1#"$(abi_of "$1")"-} dir=${KBS_ABI2_DEBS:-$KBS_OUT/abi2/debs} saved=$DEBS_DIR
	local series next meta
	series=${1%%-*}
	series=${series%.*}
	for meta in "linux-image-$series-$flavour" "linux-kbuild-$series-$flavour"; do
		next=$(newest_deb "${meta}_*_$GUEST_ARCH.deb")
		[ -n "$next" ] || die "no ${meta}_*_$GUEST_ARCH.deb in $DEBS_DIR: build the packages again (./build-kernel.sh)"
		add_debs abi1 "$next"
	done
	release_debs "$1" "$(abi_of "$1")"
	add_debs abi1 "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
	DEBS_DIR=$dir
	next=$(newest_release "$series" "$flavour")
	[ "$(abi_of "$next")" != "$(abi_of "$1")" ] ||
		die "$dir holds no other ABI of $1: ./build-kernel.sh --kernel $series --flavours $flavour --abi 2 --debs $dir"
	for meta in "linux-image-$series-$flavour" "linux-kbuild-$series-$flavour"; do
		add_debs abi2 "$(newest_deb "${meta}_*_$GUEST_ARCH.deb")"
	done
	release_debs "$next" "$(abi_of "$next")"
	add_debs abi2 "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
	DEBS_DIR=$saved
	# shellcheck disable=SC2034 # read through GUEST_ENV (write_guest_env, step names)
	KBS_META=$series-$flavour KBS_META_REL1=$1 KBS_META_REL2=$next
	GUEST_ENV+=(KBS_META KBS_META_REL1 KBS_META_REL2)
}

# write_guest_env FILE: what the guest init needs to know, as shell
# assignments; the same values name the checks on the host
write_guest_env() {
	local v
	for v in KBS_REL KBS_ABI KBS_KVER "${GUEST_ENV[@]}"; do
		printf '%s=%s\n' "$v" "${!v}"
	done >"$1"
}
