#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/abi.sh - the ABI check of the package build.
#
# debian/bin/abicheck on made-up Module.symvers files (the same symbols
# pass, an added one passes, a changed CRC, module, export type or
# namespace and a removed symbol fail, naming the symbol; a change its
# ignore list names passes, an ignore line without a reason fails); every build in
# out/abi/ against its reference in debian/abi/ (SKIP for an ABI without
# one: a new upstream version starts a new ABI); and a real one: the
# patch tests/abi/crc-itu-t-prototype.patch, which changes the prototype
# of the exported crc_itu_t, applied to the kept patched tree of SERIES's
# clean build, then build-kernel.sh --incremental must fail naming the
# symbol and the fix, and collect no .deb.  The patch is taken back out.
#
# Usage: tests/abi.sh [SERIES [FLAVOURS]]   (default: 6.1, the flavours of its build)
#
# Environment: KBS_OUT (default out/).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"

OUT=${KBS_OUT:-$TOP/out}
SERIES=${1:-6.1}
FLAVOURS=${2:-}
PATCH=$TOP/tests/abi/crc-itu-t-prototype.patch
W=
SRC=
APPLIED=

cleanup() {
	if [ -n "$APPLIED" ]; then
		patch -d "$SRC" -p1 -R --batch -s < "$PATCH" || warn "could not take $PATCH back out of $SRC"
	fi
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# symvers SYMBOL CRC [MODULE TYPE NAMESPACE]: one Module.symvers line
symvers() {
	printf '%s\t%s\t%s\t%s\t%s\n' "$2" "$1" "${3:-vmlinux}" "${4:-EXPORT_SYMBOL}" "${5:-}"
}

# abicheck_says EXPECT LINE...: abicheck of a reference (a, b, c) against
# a build of LINEs exits as EXPECT says (pass, or the text it must print)
abicheck_says() {
	_want=$1
	shift
	{ symvers a 0x1; symvers b 0x2; symvers c 0x3 m EXPORT_SYMBOL_GPL NS; } > "$W/ref"
	printf '%s\n' "$@" > "$W/new"
	_rc=0
	"$TOP/debian/bin/abicheck" "$W/ref" "$W/new" > "$W/out" 2>&1 || _rc=$?
	case $_want in
	pass) [ "$_rc" -eq 0 ] || { cat "$W/out"; return 1; } ;;
	*)
		[ "$_rc" -eq 1 ] || { cat "$W/out"; echo "abicheck exited $_rc"; return 1; }
		grep -q "^$_want" "$W/out" || { cat "$W/out"; echo "abicheck did not say '$_want'"; return 1; }
		;;
	esac
}

# ignore_says EXPECT IGNORE-LINE: abicheck --ignore (a file of IGNORE-LINE)
# of the reference against a build where b's CRC changed: pass, with an
# "ignored: changed: b" line, or fail (exit 2) saying EXPECT
ignore_says() {
	{ symvers a 0x1; symvers b 0x2; } > "$W/ref"
	{ symvers a 0x1; symvers b 0x9; } > "$W/new"
	printf '%s\n' "$2" > "$W/ignore"
	_rc=0
	"$TOP/debian/bin/abicheck" --ignore "$W/ignore" "$W/ref" "$W/new" > "$W/out" 2>&1 || _rc=$?
	case $1 in
	pass)
		[ "$_rc" -eq 0 ] || { cat "$W/out"; echo "abicheck exited $_rc"; return 1; }
		grep -q '^ignored: changed: b .*(a reason)$' "$W/out" || { cat "$W/out"; echo "no 'ignored:' line"; return 1; }
		;;
	*)
		[ "$_rc" -eq 2 ] || { cat "$W/out"; echo "abicheck exited $_rc, not 2"; return 1; }
		grep -q "$1" "$W/out" || { cat "$W/out"; echo "abicheck did not say '$1'"; return 1; }
		;;
	esac
}

check_unit() {
	_c=$(symvers c 0x3 m EXPORT_SYMBOL_GPL NS)
	ktap_check "abicheck: the same symbols pass" abicheck_says pass "$(symvers a 0x1)" "$(symvers b 0x2)" "$_c"
	ktap_check "abicheck: an added symbol passes" abicheck_says pass "$(symvers a 0x1)" "$(symvers b 0x2)" "$_c" "$(symvers d 0x4)"
	ktap_check "abicheck: a changed CRC fails, naming the symbol" abicheck_says "changed: b " \
		"$(symvers a 0x1)" "$(symvers b 0x9)" "$_c"
	ktap_check "abicheck: a changed namespace fails" abicheck_says "changed: c " \
		"$(symvers a 0x1)" "$(symvers b 0x2)" "$(symvers c 0x3 m EXPORT_SYMBOL_GPL OTHER)"
	ktap_check "abicheck: a symbol no longer GPL-only fails" abicheck_says "changed: c " \
		"$(symvers a 0x1)" "$(symvers b 0x2)" "$(symvers c 0x3 m EXPORT_SYMBOL NS)"
	ktap_check "abicheck: a removed symbol fails" abicheck_says "removed: b" "$(symvers a 0x1)" "$_c"
	ktap_check "abicheck: a change the ignore list accepts passes, reported" ignore_says pass "b* a reason"
	ktap_check "abicheck: an ignore line without a reason stops it" ignore_says "is not 'SYMBOL-PATTERN REASON'" "b"
}

# check_references: each build's symbols in out/abi/ (out/<suite>/abi/
# for a suite but bookworm) against debian/abi/
check_references() {
	for _s in $(list_data "$TOP/debian/config/suites"); do
		_dir=$(suite_out "$_s")/abi
		for _b in "$_dir"/*/*; do
			[ -f "$_b" ] || continue
			_ref=debian/abi/${_b#"$_dir/"}
			if [ -f "$TOP/$_ref" ]; then
				ktap_check "the $_s build of ${_b#"$_dir/"} has the symbols of $_ref" \
					"$TOP/debian/bin/abicheck" "$TOP/$_ref" "$_b"
			else
				ktap_skip "the $_s build of ${_b#"$_dir/"} against its reference" \
					"no $_ref: a new upstream version or ABI starts without one (cp ${_dir#"$TOP/"}/${_ref#debian/abi/} $_ref)"
			fi
		done
	done
}

# changed_export_stops_build: with the patch applied to the kept tree (by
# main: this runs in ktap_check's subshell), an incremental build fails
# naming crc_itu_t and the fix, and collects no .deb
changed_export_stops_build() {
	_rc=0
	"$TOP/build-kernel.sh" --series "$SERIES" --flavours "$FLAVOURS" --incremental --debs "$W/debs" \
		> "$W/build.out" 2>&1 || _rc=$?
	[ "$_rc" -ne 0 ] || { echo "the build succeeded with a changed export"; return 1; }
	grep -q 'incremental: the kept trees' "$W/build.out" || { echo "the build did not use the kept trees"; return 1; }
	grep -q '^changed: crc_itu_t ' "$W/build.out" || { grep -i 'abi\|error' "$W/build.out" | tail -n 3; echo "no 'changed: crc_itu_t' line"; return 1; }
	grep -q "bump $SERIES's line in debian/config/abiname" "$W/build.out" || { echo "the fix is not named"; return 1; }
	[ -z "$(find "$W/debs" -name '*.deb' 2>/dev/null)" ] || { echo ".debs were collected"; return 1; }
	grep '^changed: crc_itu_t\|abiname' "$W/build.out" | sed 's/^/# /'
}

main() {
	trap cleanup EXIT
	mkdir -p "$OUT"
	W=$(mktemp -d "$OUT/abi.XXXXXX")
	check_unit
	check_references
	_name="$SERIES: ${PATCH##*/} in the kept tree stops build-kernel.sh --incremental at the ABI check"
	SRC=$(manifest_get "$OUT/debs" file series="$SERIES" kind=tree arch="$(dpkg --print-architecture)")/src ||
		SRC=
	[ -n "$FLAVOURS" ] || FLAVOURS=$(manifest_flavours "$OUT/debs" "$SERIES") || FLAVOURS=
	if ! [ -d "$SRC" ] || [ -z "$FLAVOURS" ]; then
		ktap_fail "$_name" "no kept build of $SERIES in $OUT/debs/manifest: build first (./build-kernel.sh --series $SERIES)"
	elif ! patch -d "$SRC" -p1 --batch --fuzz=0 -s < "$PATCH"; then
		ktap_fail "$_name" "${PATCH##*/} does not apply to $SRC"
	else
		APPLIED=1
		ktap_check "$_name" changed_export_stops_build
	fi
	ktap_summary
}

main "$@"
