# Help: debian/bin/check-copyright fails on files their paragraph misattributes, a stale paragraph, a licence without its text
# shellcheck shell=sh
# A made-up source tree (usr/src/linux-kbuild-source-X, as unpacked from
# the package): an MIT file, a GPL-2.0-or-later file, an untagged file
# with the ISC permission text, an untagged one (GPL-2.0-only, COPYING).
# A copyright that claims them all as GPL-2.0-only, has a paragraph
# matching nothing and one whose licence has no text: exit 1, each
# finding on a line naming the file or paragraph and the fix, and the
# count.  The copyright that is right: exit 0.

# tree DIR: the made-up unpacked source package
tree() {
	_s=$1/usr/src/linux-kbuild-source-X
	mkdir -p "$_s/drivers/gpu" "$_s/lib" "$_s/fs"
	printf '/* SPDX-License-Identifier: MIT */\n' > "$_s/drivers/gpu/a.h"
	printf '/* SPDX-License-Identifier: GPL-2.0+ */\n' > "$_s/lib/b.h"
	printf '/*\n * Permission to use, copy, modify, and/or distribute this software for any\n * purpose with or without fee is hereby granted, provided that the above\n */\n' > "$_s/fs/c.h"
	printf '#define D 1\n' > "$_s/fs/d.h"
}

# copyright FILE PARAGRAPHS: a copyright file of those Files paragraphs and
# the License paragraphs of MIT, ISC, GPL-2.0-only, GPL-2.0-or-later
copyright() {
	{
		printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n'
		printf '%s\n' "$2"
		for _l in MIT ISC GPL-2.0-only GPL-2.0-or-later; do
			printf '\nLicense: %s\n text of %s\n' "$_l" "$_l"
		done
	} > "$1"
}

check_case() {
	tree "$T/root"
	copyright "$T/wrong" 'Files: *
Copyright: them
License: GPL-2.0-only

Files: net/*
Copyright: them
License: GPL-2.0-only

Files: lib/*
Copyright: them
License: GPL-2.0-or-later and BSD-2-Clause'
	_rc=0
	"$TOP/debian/bin/check-copyright" "$T/wrong" "$T/root" > "$T/out" 2>&1 || _rc=$?
	[ "$_rc" = 1 ] || { echo "check-copyright on a wrong copyright exited $_rc, not 1:"; head -n 5 "$T/out"; return 1; }
	for _want in 'drivers/gpu/a.h is MIT, but the Files paragraph at line 3 claims it as GPL-2.0-only' \
		'fs/c.h is ISC, but the Files paragraph at line 3' \
		'the Files paragraph at line 7 (GPL-2.0-only) claims no file: drop its stale patterns' \
		'no License paragraph with the text of BSD-2-Clause' \
		'2 of 4 files misattributed, 1 stale Files paragraphs, 1 licences without their text: fix'; do
		grep -qF "$_want" "$T/out" || { echo "check-copyright does not say '$_want':"; cat "$T/out"; return 1; }
	done
	! grep -q 'fs/d.h' "$T/out" || { echo "the untagged file without a permission text (GPL-2.0-only) was reported"; return 1; }
	copyright "$T/right" 'Files: *
Copyright: them
License: GPL-2.0-only

Files: drivers/gpu/*
Copyright: them
License: MIT

Files: fs/c.h
Copyright: them
License: ISC

Files: lib/*
Copyright: them
License: GPL-2.0-or-later'
	"$TOP/debian/bin/check-copyright" "$T/right" "$T/root" > "$T/out" 2>&1 ||
		{ echo "check-copyright on the right copyright failed:"; cat "$T/out"; return 1; }
}
