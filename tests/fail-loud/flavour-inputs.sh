# Help: gencontrol stops on a flavour named twice, a bad flavour name, one of Debian's, a missing '# Help:' line, writing nothing
# shellcheck shell=sh
# debian/bin/gencontrol in a copy of the packaging: "6.1 tiny tiny", a
# flavour named "Tiny_2", one named as Debian's "cloud-amd64" and one
# without a "# Help:" line each stop it
# with one error line naming the fix, debian/control and selection.mk
# unchanged.  (A flavour named twice made its packages twice in
# debian/control, and one without a Help line an empty description: both
# exited 0.)

# refused WHAT PATTERN FLAVOUR...: gencontrol 6.1 FLAVOUR... fails so
refused() {
	_what=$1
	_pattern=$2
	shift 2
	if (cd "$T/repo" && debian/bin/gencontrol 6.1 "$@") > "$T/out" 2> "$T/err"; then
		echo "gencontrol exited 0 with $_what"
		return 1
	fi
	one_error_line "$T/err" "$_pattern" || return 1
	cmp -s "$T/control" "$T/repo/debian/control" || { echo "debian/control was written ($_what)"; return 1; }
}

check_case() {
	mkdir -p "$T/repo/patches"
	cp -a "$TOP/debian" "$TOP/lib" "$T/repo/"
	cp -a "$TOP/patches/6.1" "$T/repo/patches/"
	cp "$T/repo/debian/control" "$T/control"
	printf '# Arch: amd64\nCONFIG_PRINTK=y\n' > "$T/repo/debian/flavours/nohelp.config"
	cp "$T/repo/debian/flavours/tiny.config" "$T/repo/debian/flavours/cloud-amd64.config"
	refused "a flavour named twice" "flavour tiny is named twice" tiny tiny || return 1
	refused "a bad flavour name" "flavour 'Tiny_2': a flavour name is lower-case letters" Tiny_2 || return 1
	refused "a flavour of Debian's name" "flavour cloud-amd64 has the name of one of Debian's (debian/config/debian-flavours)" cloud-amd64 || return 1
	refused "no Help line" "debian/flavours/nohelp.config has no '# Help:' line" nohelp
}
