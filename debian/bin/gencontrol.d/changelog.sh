# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154 # gencontrol's globals
# debian/bin/gencontrol.d/changelog.sh: the debian/changelog gencontrol
# writes, from the packaging's own history and the selection it resolved
# (SERIES, VERSION, SUITE, UPSTREAM, SOURCE_VERSION, SOURCE_DATE, ABINAME,
# REVISION, MAINTAINER, PACKAGING_ENTRY).  Sourced by gencontrol.

# write_changelog: the packaging's history (debian/templates/changelog)
# under an entry for this build, dated by its newest input: a minute
# after the packaging's newest entry (an entry must be newer than the one
# below it), or linux-source's release if that is later (reproducible: the
# same inputs, the same date, and dpkg-buildpackage's SOURCE_DATE_EPOCH)
write_changelog() {
	_date=$(($(packaging_entry Timestamp) + 60))
	[ "$SOURCE_DATE" -le "$_date" ] || _date=$SOURCE_DATE
	printf 'kbuild-split-%s (%s) %s; urgency=medium\n\n' "$SERIES" "$VERSION" "$SUITE"
	printf '  * Linux %s from linux-source-%s %s,\n    ABI %s, packaging revision %s.\n\n' \
		"$UPSTREAM" "$SERIES" "$SOURCE_VERSION" "$ABINAME" "$REVISION"
	printf ' -- %s  %s\n\n' "$MAINTAINER" "$(date -u -R -d "@$_date")"
	cat "$D/templates/changelog"
}

# packaging_entry FIELD: FIELD of the packaging's newest changelog entry
# (debian/templates/changelog, parsed once, into PACKAGING_ENTRY)
packaging_entry() {
	sed -n "s/^$1: //p" <<-EOF
	$PACKAGING_ENTRY
	EOF
}
