# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# build-kernel.sh's manifest of a build (the format: lib/manifest.sh): the
# kind of each package its runs made, their lines, the check that every
# flavour has its packages, the merge into DEBS/manifest.  Sourced by
# build-kernel.sh after lib/build.sh; uses its OUT, DEBS, SERIES,
# FLAVOURS, ARCHES and ABINAME.

# deb_kind PACKAGE: "kind flavour" of one of this build's packages, by the
# names debian/templates give them; fails on any other
deb_kind() {
	[ "$1" != "linux-kbuild-source-$ABINAME" ] || { echo "source -"; return 0; }
	for _f in $FLAVOURS; do
		case $1 in
		"linux-image-$ABINAME-$_f") echo "image $_f"; return 0 ;;
		"linux-kbuild-hostprogs-$ABINAME-$_f") echo "hostprogs $_f"; return 0 ;;
		"linux-kbuild-$ABINAME-$_f") echo "kbuild $_f"; return 0 ;;
		"linux-image-$SERIES-$_f") echo "meta-image $_f"; return 0 ;;
		"linux-kbuild-$SERIES-$_f") echo "meta-kbuild $_f"; return 0 ;;
		esac
	done
	die "dpkg-buildpackage made $1, which is of no flavour of the selection ($FLAVOURS) of $ABINAME: check debian/templates"
}

# manifest_line KIND FLAVOUR ARCH PACKAGE VERSION FILE SHA256: one line,
# in MANIFEST_FIELDS' order
manifest_line() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$SERIES" "$UPSTREAM" "$ABI" "$ABINAME" \
		"$2" "$3" "$1" "$4" "$5" "$6" "$7"
}

# manifest_of_runs DIR: DIR/manifest of this build (runs_lines); sets
# UPSTREAM, ABI and ABINAME from the selection gencontrol wrote
manifest_of_runs() {
	UPSTREAM=$(selection_value KBS_UPSTREAM)
	ABI=$(selection_value KBS_ABI)
	ABINAME=$(selection_value KBS_ABINAME)
	[ -n "$UPSTREAM" ] && [ -n "$ABI" ] && [ -n "$ABINAME" ] ||
		die "the build's debian/selection.mk names no KBS_UPSTREAM, KBS_ABI or KBS_ABINAME: run debian/bin/gencontrol"
	mkdir -p "$1"
	printf '# %s\n' "$MANIFEST_FIELDS" | tr ' ' '\t' > "$1/manifest"
	runs_lines > "$1/lines"
	# the flavours in the selection's order, the build's own lines first
	awk -F '\t' -v flavours="$FLAVOURS" '
	BEGIN { n = split(flavours, f, " "); for (i = 1; i <= n; i++) rank[f[i]] = i }
	{ printf "%d\t%s\n", rank[$5], $0 }' "$1/lines" | sort -s -n -k1,1 | cut -f2- >> "$1/manifest"
	rm -f "$1/lines"
}

# runs_lines: the manifest lines of every run's .debs, .changes, .dsc
# and kept tree
runs_lines() {
	for _a in $ARCHES; do
		_run=$OUT/pkg/$SERIES/$_a
		_name=$(build_name "$_run/kbuild-split")
		for _deb in "$_run"/*_"${_name#*_}"_*.deb; do
			[ -e "$_deb" ] || continue
			# shellcheck disable=SC2016 # dpkg-deb's fields
			_fields=$(dpkg-deb -W --showformat='${Package} ${Architecture} ${Version}' "$_deb")
			read -r _p _arch _v <<-EOF
			$_fields
			EOF
			_k=$(deb_kind "$_p")
			manifest_line "${_k% *}" "${_k#* }" "$_arch" "$_p" "$_v" "${_deb##*/}" \
				"$(sha256sum < "$_deb" | cut -d' ' -f1)"
		done
		for _f in "$_run/$_name"_*.changes "$_run/$_name.dsc"; do
			[ -e "$_f" ] || continue
			_v=$(sed -n 's/^Version: //p' "$_f")
			manifest_line "${_f##*.}" - "$_a" - "$_v" "$_f" "$(sha256sum < "$_f" | cut -d' ' -f1)"
		done
		[ ! -d "$_run/kbuild-split/debian/build" ] ||
			manifest_line tree - "$_a" - - "$_run/kbuild-split/debian/build" -
	done
}

# check_complete DIR: DIR/manifest has each flavour's image, kbuild, host
# programs and metapackages, for its architecture, and the source tree
check_complete() {
	manifest_get "$1" file kind=source > /dev/null || die "the build made no linux-kbuild-source-$ABINAME"
	for _f in $FLAVOURS; do
		_a=$(selection_value "KBS_ARCH_$_f")
		for _k in image kbuild hostprogs meta-image meta-kbuild; do
			manifest_get "$1" file kind="$_k" flavour="$_f" arch="$_a" > /dev/null ||
				die "the build made no $_k package of flavour $_f for $_a: see $OUT/logs/build-$SERIES-$_a.log"
		done
	done
}

# merge_manifest NEW: NEW's lines in DEBS/manifest, in place of those of
# the same series
merge_manifest() {
	{
		head -n 1 "$1"
		[ ! -f "$DEBS/manifest" ] || awk -F '\t' -v s="$SERIES" '!/^#/ && $1 != s' "$DEBS/manifest"
		tail -n +2 "$1"
	} > "$DEBS/manifest.new"
	mv "$DEBS/manifest.new" "$DEBS/manifest"
}
