# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# qemu-test/lib/debs.sh: which .debs a scenario stages in the guest
# (/kbs/debs/<group>/), and what the guest is told of them (/kbs/env).
# Sourced by qemu-test/run.

# deb_of FIELD=VALUE...: the .deb of the one line of DEBS_DIR/manifest with
# those values (the build manifest, lib/manifest.sh)
deb_of() {
	manifest_get "$DEBS_DIR" file "$@" ||
		die "build it first (./build-kernel.sh), or point --debs at the directory holding it"
}

# release_debs ABINAME FLAVOUR: the image, kbuild and host programs
# packages of that release (those of the guest's architecture) and the
# source package of ABINAME, into DEB_IMAGE, DEB_KBUILD, DEB_HOSTPROGS,
# DEB_SOURCE.
release_debs() {
	local k
	for k in IMAGE KBUILD HOSTPROGS; do
		printf -v "DEB_$k" '%s' "$(deb_of abiname="$1" kind="${k,,}" flavour="$2" arch="$GUEST_ARCH")"
		[ -n "$(eval "echo \$DEB_$k")" ] || exit 1
	done
	DEB_SOURCE=$(deb_of abiname="$1" kind=source)
}

# release_of SERIES FLAVOUR: "ABINAME FLAVOUR" of the build of SERIES in
# DEBS_DIR whose FLAVOUR (the first for the guest's architecture, when
# empty) is for the guest's architecture; SERIES may be empty when the
# manifest holds one series for it.
release_of() {
	local series=$1 flavour=$2 all abiname
	if [ -z "$series" ]; then
		all=$(manifest_list "$DEBS_DIR" series kind=image arch="$GUEST_ARCH")
		[ -n "$all" ] && [ "$(wc -l <<<"$all")" -eq 1 ] ||
			die "$DEBS_DIR/manifest holds builds of $(printf "%s" "${all:-no series}" | tr "\n" " ") for $GUEST_ARCH: set KBS_SERIES to one"
		series=$all
	fi
	if [ -z "$flavour" ]; then
		all=$(manifest_list "$DEBS_DIR" flavour series="$series" kind=image arch="$GUEST_ARCH")
		flavour=${all%%$'\n'*}
		[ -n "$flavour" ] || die "$DEBS_DIR/manifest has no $series build for $GUEST_ARCH: build it first" \
			"(./build-kernel.sh --series $series), or point --debs elsewhere"
	fi
	abiname=$(manifest_get "$DEBS_DIR" abiname series="$series" kind=image flavour="$flavour" arch="$GUEST_ARCH") ||
		die "build it first (./build-kernel.sh --series $series --flavours $flavour), or point --debs elsewhere"
	printf '%s %s\n' "$abiname" "$flavour"
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
	local r
	[ -d "$DEBS_DIR" ] || die "no directory $DEBS_DIR; build the packages first, or point --debs at them"
	r=$(release_of "$SERIES" "$FLAVOUR")
	KBS_ABINAME=${r% *}
	KBS_REL=$KBS_ABINAME-${r#* }
	# shellcheck disable=SC2034 # read through write_guest_env
	KBS_UPSTREAM=$(manifest_get "$DEBS_DIR" upstream abiname="$KBS_ABINAME" kind=source)
	release_debs "$KBS_ABINAME" "${r#* }"
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
	local main twin other other_abi r up=$WORK/up f
	select_release
	main=("$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE")
	twin=$KBS_ABINAME-$TWIN_FLAVOUR
	r=$(release_of "$OTHER_SERIES" "$OTHER_FLAVOUR")
	other_abi=${r% *}
	other=$other_abi-${r#* }
	[ "$other_abi" != "$KBS_ABINAME" ] ||
		die "the lifecycle tests $KBS_REL beside $OTHER_SERIES: set KBS_SERIES to another series, e.g. KBS_SERIES=6.1"
	add_debs main "${main[@]}"
	release_debs "$KBS_ABINAME" "$TWIN_FLAVOUR"
	add_debs twin "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS"
	mkdir -p "$up"
	for f in "${main[@]}" "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS"; do
		add_debs up "$(bump_deb "$f" +up1 "$up")"
	done
	release_debs "$other_abi" "${r#* }"
	add_debs other "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
	add_meta_repos "$OTHER_SERIES" "$other_abi" "${r#* }"
	DEB_IMAGE=${main[0]} DEB_KBUILD=${main[1]} DEB_HOSTPROGS=${main[2]} DEB_SOURCE=${main[3]}
	# shellcheck disable=SC2034 # read through GUEST_ENV (write_guest_env, step names)
	KBS_TWIN_REL=$twin KBS_OTHER_REL=$other KBS_OTHER_ABINAME=$other_abi \
		KBS_UP_VERSION="$(dpkg-deb -f "$DEB_IMAGE" Version)+up1"
	GUEST_ENV+=(KBS_TWIN_REL KBS_OTHER_REL KBS_OTHER_ABINAME KBS_UP_VERSION)
	log "lifecycle of $KBS_REL beside $twin and $other, then the ABI upgrade of $other to $KBS_META_REL2"
}

# add_meta_debs GROUP SERIES FLAVOUR: SERIES' FLAVOUR metapackages of
# DEBS_DIR's build, for the guest's architecture, staged under GROUP
add_meta_debs() {
	local meta f
	for meta in meta-image meta-kbuild; do
		f=$(deb_of series="$2" kind="$meta" flavour="$3" arch="$GUEST_ARCH")
		add_debs "$1" "$f"
	done
}

# add_meta_repos SERIES ABINAME FLAVOUR: apt repositories /kbs/debs/abi1 and
# abi2 (stage_tree indexes them) of SERIES' FLAVOUR: its metapackages with
# ABINAME's packages, and those of the build with the next ABI, from
# KBS_ABI2_DEBS (default: the suite's abi2/debs, out/abi2/debs for
# bookworm, out/<suite>/abi2/debs for another).  DEB_* are left at the
# second's.
add_meta_repos() {
	local series=$1 abiname=$2 flavour=$3 dir=${KBS_ABI2_DEBS:-$(suite_out "$SUITE")/abi2/debs} saved=$DEBS_DIR
	local r next_abi
	add_meta_debs abi1 "$series" "$flavour"
	release_debs "$abiname" "$flavour"
	add_debs abi1 "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
	DEBS_DIR=$dir
	r=$(release_of "$series" "$flavour")
	next_abi=${r% *}
	[ "$next_abi" != "$abiname" ] ||
		die "$dir holds no other ABI of $abiname-$flavour: ./build-kernel.sh --series $series --flavours $flavour --abi 2 --debs $dir"
	add_meta_debs abi2 "$series" "$flavour"
	release_debs "$next_abi" "$flavour"
	add_debs abi2 "$DEB_IMAGE" "$DEB_KBUILD" "$DEB_HOSTPROGS" "$DEB_SOURCE"
	DEBS_DIR=$saved
	# shellcheck disable=SC2034 # read through GUEST_ENV (write_guest_env, step names)
	KBS_META=$series-$flavour KBS_META_REL1=$abiname-$flavour KBS_META_REL2=$next_abi-$flavour
	GUEST_ENV+=(KBS_META KBS_META_REL1 KBS_META_REL2)
}

# write_guest_env FILE: what the guest init needs to know, as shell
# assignments; the same values name the checks on the host
write_guest_env() {
	local v
	for v in KBS_SUITE KBS_REL KBS_ABINAME KBS_UPSTREAM "${GUEST_ENV[@]}"; do
		printf '%s=%s\n' "$v" "${!v}"
	done >"$1"
}
