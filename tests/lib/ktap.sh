# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# KTAP output and the checks that more than one test suite makes.
# Sourced by the test suites, tests/run and qemu-test/run, after
# lib/kbuild-split.sh; debian/ never loads it.

# KTAP results: ktap_plan N first when the count is known, then ktap_ok NAME,
# ktap_fail NAME WHY, ktap_skip NAME WHY; ktap_summary prints "N passed, N
# failed[, N skipped]" and returns non-zero on failure.
KTAP_N=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0

ktap_plan() {
	printf 'KTAP version 1\n1..%d\n' "$1"
}

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	printf 'ok %d %s\n' "$KTAP_N" "$1"
}

ktap_fail() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	printf 'not ok %d %s # %s\n' "$KTAP_N" "$1" "$2"
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_SKIP=$((KTAP_SKIP + 1))
	printf 'ok %d %s # SKIP %s\n' "$KTAP_N" "$1" "$2"
}

# ktap_check NAME CMD...: run CMD, report ok/not ok with the last output line
# as diagnostic; on success its "# " lines are shown.
ktap_check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ktap_ok "$_name"
		# measurements a check reports as "# " lines
		printf '%s\n' "$_out" | grep '^# ' || true # most checks report none
	else
		ktap_fail "$_name" "$(printf '%s\n' "$_out" | tail -n 1)"
		printf '%s\n' "$_out" | sed 's/^/# /' | tail -n 20
	fi
}

# ktap_adopt LOG: the results of another run's KTAP output (LOG) as this
# run's own, numbered on; its "# " lines kept, its other lines (plan,
# closing line, messages) shown as diagnostics.  Fails when LOG has no
# closing "N passed, N failed" line or its counts are not its results.
ktap_adopt() {
	_ka_p=0
	_ka_f=0
	_ka_s=0
	_ka_sum=
	while IFS= read -r _ka; do
		case $_ka in
		'not ok '[0-9]*)
			_ka=${_ka#not ok }
			_ka=${_ka#* }
			case $_ka in
			*' # '*) ktap_fail "${_ka%% # *}" "${_ka#* # }" ;;
			*) ktap_fail "$_ka" "" ;;
			esac
			_ka_f=$((_ka_f + 1))
			;;
		'ok '[0-9]*' # SKIP '*)
			_ka=${_ka#ok }
			_ka=${_ka#* }
			ktap_skip "${_ka%% # SKIP *}" "${_ka#* # SKIP }"
			_ka_s=$((_ka_s + 1))
			;;
		'ok '[0-9]*)
			_ka=${_ka#ok }
			ktap_ok "${_ka#* }"
			_ka_p=$((_ka_p + 1))
			;;
		[0-9]*' passed, '[0-9]*' failed'*) _ka_sum=$_ka ;;
		'# '[0-9]*' tests' | 'KTAP version '* | 1..[0-9]*) ;;
		'#'*) printf '%s\n' "$_ka" ;;
		*) printf '# %s\n' "$_ka" ;;
		esac
	done < "$1"
	_ka_want="$_ka_p passed, $_ka_f failed"
	[ "$_ka_s" -eq 0 ] || _ka_want="$_ka_want, $_ka_s skipped"
	[ "$_ka_sum" = "$_ka_want" ]
}

ktap_summary() {
	printf '# %d tests\n' "$KTAP_N"
	if [ "$KTAP_SKIP" -gt 0 ]; then
		printf '%d passed, %d failed, %d skipped\n' "$KTAP_PASS" "$KTAP_FAIL" "$KTAP_SKIP"
	else
		printf '%d passed, %d failed\n' "$KTAP_PASS" "$KTAP_FAIL"
	fi
	[ "$KTAP_FAIL" -eq 0 ]
}

# install_host_packages SUITE...: the Debian packages of tests/host-packages
# (KBS_HOST_PACKAGES) that these test suites need, when they are missing
# (need_packages, lib/host.sh): lines without suite names are for every
# suite
install_host_packages() {
	_ihp=$(sed -e 's/#.*//' "${KBS_HOST_PACKAGES:-$TOP/tests/host-packages}" | awk -v want=" $* " '
		NF == 0 { next }
		NF == 1 { print $1; next }
		{ for (i = 2; i <= NF; i++) if (index(want, " " $i " ")) { print $1; next } }')
	# shellcheck disable=SC2086 # package names
	need_packages $_ihp
}

# --- packages ---------------------------------------------------------------

# bump_deb DEB SUFFIX OUTDIR: DEB again with version V+SUFFIX, and the
# relations that name V (or V.1~, the end of a range) likewise, as a
# rebuild after a debian/changelog bump makes it; uncompressed, to unpack
# fast in a TCG guest.  Prints its path.
bump_deb() {
	_bd_tmp=$(mktemp -d)
	dpkg-deb -R "$1" "$_bd_tmp/p"
	_bd_v=$(dpkg-deb -f "$1" Version)
	_bd_re=$(printf '%s\n' "$_bd_v" | sed 's/[.]/\\./g')
	sed -i -e "s/^Version: .*/Version: $_bd_v$2/" \
		-e "/^\(Depends\|Breaks\|Pre-Depends\):/s/ $_bd_re\(\.1~\)\{0,1\})/ $_bd_v$2\1)/g" "$_bd_tmp/p/DEBIAN/control"
	_bd_out=$3/$(dpkg-deb -f "$1" Package)_$_bd_v$2_$(dpkg-deb -f "$1" Architecture).deb
	dpkg-deb -Znone -b "$_bd_tmp/p" "$_bd_out" >/dev/null
	rm -rf "$_bd_tmp"
	printf '%s\n' "$_bd_out"
}

# elf_machine FILE: the e_machine of an ELF file (62 x86-64, 183 AArch64),
# nothing for another file
elf_machine() {
	[ "$(head -c 4 "$1" | tail -c 3)" = ELF ] || return 0
	od -An -tu2 -j18 -N2 "$1" | tr -d ' '
}

# elf_files DIR: the ELF files under DIR, one a line (the first 4 bytes
# of each, read by one perl: a source tree has 30,000 files)
elf_files() {
	find "$1" -type f -print0 |
		perl -0ne 'chomp; open(my $f, "<", $_) or die "$_: $!\n"; read($f, my $m, 4); print "$_\n" if $m eq "\x7fELF"'
}

# check_elf DEB: every ELF file in it is of the package's architecture
# (debian/arches/<arch> elf-machine), none in an arch:all one; unpacks
# into W/elf
check_elf() {
	_arch=$(dpkg-deb -f "$1" Architecture)
	_want=none
	[ "$_arch" = all ] ||
		_want=$(data_value "$TOP/debian/arches/$_arch" elf-machine) || { echo "no elf-machine for $_arch"; return 1; }
	rm -rf "$W/elf"
	dpkg-deb -x "$1" "$W/elf"
	elf_files "$W/elf" | sort > "$W/elf.list" || { echo "cannot read the files of ${1##*/}"; return 1; }
	_n=0
	while IFS= read -r _f; do
		_m=$(elf_machine "$_f")
		[ "$_m" = "$_want" ] || { echo "${_f#"$W/elf"} is for ELF machine $_m, not $_arch ($_want)"; return 1; }
		_n=$((_n + 1))
	done < "$W/elf.list"
	echo "# ${1##*/}: $_n ELF files, all for $_arch"
}

# maint_script_problems SCRIPT KIND.NAME: what is wrong with a maintainer
# script (one line each; nothing when it is right): its syntax, shellcheck,
# a function defined twice, and the hook directory debian/maint/hooks says
# it runs for KIND.NAME (image.postinst, ...)
maint_script_problems() {
	sh -n "$1" 2>&1 | head -n 1
	shellcheck -s sh -S warning -f gcc "$1" 2>&1 | head -n 3
	sed -n 's/^\([a-z_][a-z0-9_]*\)() *{.*/\1/p' "$1" | sort | uniq -d | sed 's/^/defined twice: /'
	if _mh=$(data_value "$TOP/debian/maint/hooks" "$2"); then
		grep -q "^run_hooks() {" "$1" || echo "no run_hooks function"
		grep -q "run_hooks $_mh " "$1" || echo "does not run the $_mh hooks"
	fi
}
