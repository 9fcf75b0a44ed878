#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/lint.sh - shellcheck every shell script of the repository, and
# check the maintainer scripts as debian/bin/genmaintscripts makes them:
# sh -n, shellcheck, no function defined twice, the hooks each must run
# (debian/maint/hooks); and that what debian/bin/gencontrol writes is the
# same whichever architecture's machine runs it (a .dsc any buildd builds).
#
# Usage: tests/lint.sh

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"

W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# repo_files: the tracked files (all files but out/, without git)
repo_files() {
	if [ -d "$TOP/.git" ] && command -v git >/dev/null 2>&1; then
		git -C "$TOP" ls-files
	else
		(cd "$TOP" && find . -path ./out -prune -o -path ./.git -prune -o -type f -print | sed 's:^\./::')
	fi
}

# shell_scripts: tracked files that are shell by name or by #! line
shell_scripts() {
	repo_files | while read -r _f; do
		case $_f in
		debian/maint/* | debian/templates/* | debian/rules | *.config | *.patch) ;;
		*.sh) echo "$_f" ;;
		*) head -n 1 "$TOP/$_f" 2>/dev/null | grep -qE '^#!.*/(ba|da)?sh' && echo "$_f" ;;
		esac
	done
}

# check_maint_script SCRIPT KIND.NAME
check_maint_script() {
	_p=$(maint_script_problems "$1" "$2")
	[ -z "$_p" ] || { printf '%s\n' "$_p"; return 1; }
}

# generate_as ARCH DIR [SOURCE_VERSION [DATE]]: the packaging generated in
# DIR on a machine whose dpkg says ARCH (dpkg-architecture's defaults too),
# for every flavour; linux-source-6.1 as SOURCE_VERSION (default
# 6.1.999-1), its tarball dated DATE (default 2026-01-01; what is
# installed does not matter here)
generate_as() {
	mkdir -p "$2/bin"
	printf '#!/bin/sh\ncase $1 in --print-architecture) echo %s ;; *) exec /usr/bin/dpkg "$@" ;; esac\n' "$1" > "$2/bin/dpkg"
	printf '#!/bin/sh\necho %s\n' "${3:-6.1.999-1}" > "$2/bin/dpkg-query"
	chmod 755 "$2/bin/dpkg" "$2/bin/dpkg-query"
	mkdir -p "$2/top"
	cp -a "$TOP/debian" "$TOP/lib" "$TOP/patches" "$2/top/"
	touch -d "${4:-2026-01-01 00:00 UTC}" "$2/linux-source-6.1.tar.xz"
	printf 'kernel_tarball() { echo "%s"; }\n' "$2/linux-source-6.1.tar.xz" >> "$2/top/lib/kbuild-split.sh"
	(cd "$2/top" && PATH=$2/bin:$PATH DEB_BUILD_ARCH=$1 DEB_HOST_ARCH=$1 debian/bin/gencontrol 6.1) 2> "$2/log" ||
		{ cat "$2/log"; return 1; }
}

# version_of DIR: the version gencontrol wrote there
version_of() {
	dpkg-parsechangelog -l "$1/top/debian/changelog" -S Version
}

# check_source_revisions: linux-source-6.1 6.1.999-2 then -3 (a security
# update) give two versions, the second higher, both above 6.1.999-1's;
# the changelog is dated by the newer of a minute after the packaging's entry and the
# tarball's release, and says which linux-source it builds
check_source_revisions() {
	generate_as amd64 "$W/rev1" 6.1.999-1 && generate_as amd64 "$W/rev2" 6.1.999-2 &&
		generate_as amd64 "$W/rev3" 6.1.999-3 "2037-01-01 00:00 UTC" || return 1
	_v1=$(version_of "$W/rev1") && _v2=$(version_of "$W/rev2") && _v3=$(version_of "$W/rev3") || return 1
	echo "# 6.1.999-1: $_v1, -2: $_v2, -3: $_v3"
	dpkg --compare-versions "$_v2" gt "$_v1" && dpkg --compare-versions "$_v3" gt "$_v2" ||
		{ echo "the versions of linux-source 6.1.999-1, -2, -3 are not in order: $_v1 $_v2 $_v3"; return 1; }
	_d=$(dpkg-parsechangelog -l "$W/rev3/top/debian/changelog" -S Timestamp)
	[ "$_d" = "$(date -d "2037-01-01 00:00 UTC" +%s)" ] ||
		{ echo "the changelog of a build from a tarball of 2037 is dated $(date -u -d "@$_d")"; return 1; }
	_d=$(dpkg-parsechangelog -l "$W/rev1/top/debian/changelog" -S Timestamp)
	[ "$_d" = "$(($(dpkg-parsechangelog -l "$TOP/debian/templates/changelog" -S Timestamp) + 60))" ] ||
		{ echo "the changelog of a build from an older tarball is not dated a minute after the packaging's entry"; return 1; }
	grep -q 'from linux-source-6.1 6.1.999-3,' "$W/rev3/top/debian/changelog" ||
		{ echo "the changelog does not name linux-source-6.1 6.1.999-3"; return 1; }
	# lintian's debian-changelog-line-too-long: the entry's lines, not its trailer
	_long=$(sed '/^ -- /,$d' "$W/rev3/top/debian/changelog" | awk 'length > 80')
	[ -z "$_long" ] || { echo "a changelog line longer than 80 characters: $_long"; return 1; }
	grep -q 'linux-source-6.1 (= 6.1.999-3)' "$W/rev3/top/debian/control" ||
		{ echo "debian/control does not build from linux-source-6.1 6.1.999-3 exactly"; return 1; }
}

# check_packager: with DEBFULLNAME and DEBEMAIL, the packages' Maintainer
# and the changelog's trailer are the packager, which the selection
# records: --verify in a shell without them still holds
check_packager() {
	(export DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org && generate_as amd64 "$W/packager") || return 1
	_m=$(sed -n 's/^Maintainer: //p' "$W/packager/top/debian/control")
	[ "$_m" = "Jane Doe <jane@example.org>" ] || { echo "Maintainer: $_m"; return 1; }
	_m=$(dpkg-parsechangelog -l "$W/packager/top/debian/changelog" -S Maintainer)
	[ "$_m" = "Jane Doe <jane@example.org>" ] || { echo "the changelog's trailer: $_m"; return 1; }
	(cd "$W/packager/top" && env -u DEBFULLNAME -u DEBEMAIL PATH="$W/packager/bin:$PATH" \
		DEB_BUILD_ARCH=amd64 DEB_HOST_ARCH=amd64 debian/bin/gencontrol --verify) ||
		{ echo "gencontrol --verify without DEBFULLNAME and DEBEMAIL failed"; return 1; }
	echo "# Maintainer: $_m"
}

# run_postinst SCRIPT RC: SCRIPT configured as dpkg runs it, with the
# recording linux-run-hooks of check_linux_run_hooks exiting RC
run_postinst() {
	PATH="$W/runhooks:$PATH" KBS_HOOK_RC=$2 DPKG_MAINTSCRIPT_NAME=postinst \
		DPKG_MAINTSCRIPT_PACKAGE=linux-kbuild-6.1.0-1-flavour sh "$1" configure 1.0 > "$W/runhooks/out" 2>&1
}

# check_linux_run_hooks SCRIPT: SCRIPT (a kbuild postinst), run with a
# linux-run-hooks that records its arguments, calls it as Debian 13's
# headers do; when it fails, SCRIPT fails naming the recovery
check_linux_run_hooks() {
	mkdir -p "$W/runhooks"
	printf '#!/bin/sh\necho "$*" > %s/args\nexit ${KBS_HOOK_RC:-0}\n' "$W/runhooks" > "$W/runhooks/linux-run-hooks"
	chmod 755 "$W/runhooks/linux-run-hooks"
	run_postinst "$1" 0 || { cat "$W/runhooks/out"; return 1; }
	_args=$(cat "$W/runhooks/args")
	[ "$_args" = "headers postinst 6.1.0-1-flavour -- configure 1.0" ] ||
		{ echo "linux-run-hooks $_args"; return 1; }
	if run_postinst "$1" 1; then
		echo "the postinst succeeded with a failing hook"
		return 1
	fi
	grep -q 'a hook in /etc/kernel/header_postinst.d or /usr/share/kernel/header_postinst.d failed; fix it, then run dpkg --configure -a' \
		"$W/runhooks/out" || { cat "$W/runhooks/out"; return 1; }
}

# check_any_arch: gencontrol's output is the same as if on amd64 and arm64
check_any_arch() {
	generate_as amd64 "$W/amd64" && generate_as arm64 "$W/arm64" || return 1
	for _f in control changelog selection.mk; do
		cmp -s "$W/amd64/top/debian/$_f" "$W/arm64/top/debian/$_f" ||
			{ echo "debian/$_f differs:"; diff "$W/amd64/top/debian/$_f" "$W/arm64/top/debian/$_f" | head -n 6; return 1; }
	done
	grep -A 12 '^Build-Depends:' "$W/amd64/top/debian/control" | sed -n '/^Standards/q; s/^/# /p'
}

main() {
	need_cmd shellcheck shellcheck
	trap cleanup EXIT
	W=$(mktemp -d)
	for _f in $(shell_scripts); do
		ktap_check "shellcheck $_f" shellcheck -S warning "$TOP/$_f"
	done
	# The maintainer scripts, as debian/rules has them made, for each
	# suite's modules directory.
	for _suite in $(list_data "$TOP/debian/config/suites"); do
		mkdir -p "$W/maint-$_suite"
		_runner=linux-run-hooks
		[ "$(suite_run_hooks "$_suite")" != - ] || _runner=run-parts
		for _kind in image kbuild; do
			"$TOP/debian/bin/genmaintscripts" "$_kind" "linux-$_kind-6.1.0-1-flavour" "$W/maint-$_suite" \
				REL=6.1.0-1-flavour ABINAME=6.1.0-1 HOOKDIR=/etc/kernel INITRD=No \
				MODULES_DIR="$(suite_modules_dir "$_suite")" HOOK_RUNNER="$_runner"
		done
		for _s in "$W/maint-$_suite"/linux-*; do
			_name=$(echo "${_s##*/}" | sed 's/^linux-\([a-z]*\)-.*\.\([a-z]*\)$/\1.\2/')
			ktap_check "generated maintainer script $_name ($_suite)" check_maint_script "$_s" "$_name"
		done
	done
	ktap_check "trixie's kbuild postinst runs the hooks with linux-run-hooks; a failing hook names dpkg --configure -a" \
		check_linux_run_hooks "$W/maint-trixie/linux-kbuild-6.1.0-1-flavour.postinst"
	ktap_check "debian/control, changelog and selection.mk: the same as if generated on amd64 and on arm64" check_any_arch
	ktap_check "the Maintainer is the packager's DEBFULLNAME and DEBEMAIL, recorded in the selection" check_packager
	ktap_check "two revisions of linux-source, two ordered versions; the changelog dated by its inputs" check_source_revisions
	ktap_summary
}

main "$@"
