# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/packages/lintian.sh: lintian on the builds' .changes, for
# tests/packages.sh, which sources it, runs it with the suite's own
# lintian, and sets SUITE, SERIES, ABINAME, DEBS, OUT and W.

# lint_changes: lintian on the .changes of SERIES' build that are still
# those the build wrote (a later build of the series, e.g. --abi 2, writes
# its own in the same out/pkg/<series>/<arch>)
lint_changes() {
	_changes=
	for _c in $(manifest_list "$DEBS" file series="$SERIES" kind=changes); do
		_want=$(manifest_get "$DEBS" sha256 series="$SERIES" file="$_c") || return 1
		if [ "$(sha256sum < "$_c" 2>/dev/null | cut -d' ' -f1)" = "$_want" ]; then
			_changes="$_changes $_c"
		else
			ktap_skip "$ABINAME: lintian on ${_c##*/}" "a later build of $SERIES replaced it in ${_c%/*}"
		fi
	done
	[ -n "$_changes" ] || return 0
	# shellcheck disable=SC2086 # paths without spaces
	ktap_check "$ABINAME: $SUITE's lintian reports no error and no unexplained warning on the build's .changes" \
		run_lintian $_changes
	echo "# $(lintian --version) ($SUITE's), on:$(for _c in $_changes; do printf ' %s' "${_c##*/}"; done)"
	grep -E '^[EWIPX]: ' "$W/lintian" 2>/dev/null | sed 's/^/# lintian: /'
}


# run_lintian CHANGES...: lintian's verdict on the builds: exit 0 is no
# error and no warning but those the packaging's lintian-overrides explain,
# 2 errors or warnings found (--fail-on), anything else lintian failed
run_lintian() {
	[ -f "${1:-}" ] || { echo "no .changes of this ABI's build in $OUT/pkg"; return 1; }
	# The checks for embedded copies of JavaScript and PHP libraries took 54
	# of the 80 s lintian's checks spent on the 28k-file source tree, which
	# holds C headers, Makefiles and kbuild's scripts.
	_rc=0
	lintian --fail-on error,warning --tag-display-limit 0 \
		-X languages/javascript/embedded,languages/php/embedded,languages/php/pear/embedded \
		"$@" > "$W/lintian" 2>&1 || _rc=$?
	case $_rc in
	0) ;;
	2) grep -E '^[EW]: ' "$W/lintian" | head -n 5; return 1 ;;
	*) tail -n 3 "$W/lintian"; echo "lintian failed to run (exit $_rc)"; return 1 ;;
	esac
}
