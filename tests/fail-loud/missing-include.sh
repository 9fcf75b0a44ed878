# Help: a flavour including a fragment that is not there stops gencontrol, debian/control unchanged
# shellcheck shell=sh
# debian/bin/gencontrol 6.1 broken, in a copy of the packaging where
# debian/flavours/broken.config says "# Include: nosuch": one error line
# naming the missing debian/config/nosuch.config, non-zero exit, neither
# debian/control nor debian/selection.mk written.  (The error was printed
# inside a command substitution and lost: exit 0, the flavour built from
# common.config and its own fragment alone.)

check_case() {
	mkdir -p "$T/repo/patches"
	cp -a "$TOP/debian" "$TOP/lib" "$T/repo/"
	cp -a "$TOP/patches/6.1" "$T/repo/patches/"
	printf '# Arch: amd64\n# Include: nosuch\n# Help: a flavour with a missing include\nCONFIG_PRINTK=y\n' \
		> "$T/repo/debian/flavours/broken.config"
	cp "$T/repo/debian/control" "$T/control.before"
	rm -f "$T/repo/debian/selection.mk"
	if "$T/repo/debian/bin/gencontrol" 6.1 broken > "$T/out" 2> "$T/err"; then
		echo "gencontrol exited 0 with a missing include"
		return 1
	fi
	one_error_line "$T/err" "includes 'nosuch', but there is no debian/config/nosuch.config" || return 1
	cmp -s "$T/control.before" "$T/repo/debian/control" || { echo "debian/control was written"; return 1; }
	! [ -e "$T/repo/debian/selection.mk" ] || { echo "debian/selection.mk was written"; return 1; }
}
