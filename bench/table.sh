# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# bench/table.sh: bench/run's target and stage tables, from the rows
# bench/run timed ($W/times) and the stages each package build wrote
# ($W/stages/).  Sourced by bench/run; uses its W and row names (B_NONE,
# B_COLD, B_WARM, FLOOR_HIT, DEB_NONE).

# stages_of BUILD: where bench/run keeps the stages of package build BUILD
stages_of() {
	printf '%s/stages/%s\n' "$W" "$(echo "$1" | tr ' /' '__')"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'
}

# verdict RATIO TARGET: whether RATIO is within TARGET
verdict() {
	if [ "$(echo "$1 <= $2" | bc)" = 1 ]; then echo met; else echo "NOT met"; fi
}

# wall NAME: the wall seconds of the timed row NAME
wall() {
	awk -F '\t' -v n="$1" '$1 == n { print $2; exit }' "$W/times"
}

# stage_cells BUILD STAGE: "wall | CPU" of STAGE in BUILD's stages, summed
# over its runs (one a flavour); for STAGE "rest", the build's wall time
# that no stage took (dh's helpers, dpkg-buildpackage, build-kernel.sh)
stage_cells() {
	_sf=$(stages_of "$1")
	if [ "$2" = rest ]; then
		awk -F '\t' -v t="$(wall "$1")" '{ w += $2 } END { printf "%.1f | ", t - w }' "$_sf"
	else
		awk -F '\t' -v n="$2" '$1 == n { w += $2; c += $3; f = 1 } END { if (f) printf "%.1f | %.1f", w, c; else printf "- | -" }' "$_sf"
	fi
}

write_stage_table() {
	echo
	echo "Where a package build's time goes (measured: debian/build/stages of each build, wall | CPU s):"
	echo
	echo "| stage | no ccache | | cold ccache | | warm ccache, full rebuild | |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	cat "$W"/stages/* | cut -f1 | awk '!seen[$0]++' > "$W/stage-names"
	echo rest >> "$W/stage-names"
	while IFS= read -r _st; do
		_row="| $_st"
		[ "$_st" != rest ] || _row="| the rest: dh's helpers, dpkg-buildpackage, build-kernel.sh (wall only)"
		for _b in "$B_NONE" "$B_COLD" "$B_WARM"; do
			_row="$_row | $(stage_cells "$_b" "$_st")"
		done
		echo "$_row |"
	done < "$W/stage-names"
	echo "| total: build-kernel.sh, wall | $(wall "$B_NONE") | | $(wall "$B_COLD") | | $(wall "$B_WARM") | |"
	_none=$(wall "$DEB_NONE")
	_dd=$(awk -F '\t' '$1 == "dpkg-deb and compression" { w += $2 } END { print w }' "$(stages_of "$B_NONE")")
	echo
	echo "Of the no-ccache build's dpkg-deb and compression ($_dd s, every package): dpkg-deb without"
	echo "compression on the same package directories $_none s (measured), so compression"
	echo "$(awk -v a="$_dd" -v b="$_none" 'BEGIN { printf "%.1f", a - b }') s (derived)."
}

# target_rows BUILD FLOOR: BUILD's wall time against FLOOR's, as it is
# and less its unpack, patch and config, which the floor's tree had
# before its clock started; where it exceeds the floor into $W/excess
target_rows() {
	_tw=$(wall "$1")
	_fw=$(wall "$2")
	echo "| $1 | $_tw | $_fw | $(ratio "$_tw" "$_fw") | 1.05 | $(verdict "$(ratio "$_tw" "$_fw")" 1.05) |"
	_sf=$(stages_of "$1")
	awk -F '\t' -v t="$_tw" -v f="$_fw" -v n="$1" '$1 == "compile" { c += $2 }
		END { printf "- %s: compile stage %+.1f s, the rest of the build %.1f s\n", n, c - f, t - c }' \
		"$_sf" >> "$W/excess"
	_pre=$(awk -F '\t' '$1 == "unpack and patch" || $1 == "config" { w += $2 } END { printf "%.1f", w }' "$_sf")
	_net=$(awk -v t="$_tw" -v p="$_pre" 'BEGIN { printf "%.1f", t - p }')
	echo "| $1, less its unpack, patch and config ($_pre s), done before the floor's clock started |" \
		"$_net | $_fw | $(ratio "$_net" "$_fw") | 1.05 | $(verdict "$(ratio "$_net" "$_fw")" 1.05) |"
}

write_target_table() {
	_floor="make O= bzImage modules NM='$(kbuild_nm)' (same-nm floor)"
	: > "$W/excess"
	echo
	echo "| target (all measured) | wall s | floor s | ratio | limit | |"
	echo "|---|---:|---:|---:|---:|---|"
	target_rows "$B_COLD" "$_floor"
	target_rows "$B_NONE" "$_floor"
	target_rows "$B_WARM" "$FLOOR_HIT"
	echo
	echo "Where each build exceeds its floor (measured): its compile stage against the floor's make, and"
	echo "everything else it does (all other stages and the rest):"
	echo
	cat "$W/excess"
}
