# Help: a debian/control that is not what gencontrol makes of its inputs stops debian/rules, naming the command
# shellcheck shell=sh
# In a copy of the packaging, debian/bin/gencontrol 6.1 tiny, then a
# template changed (as a packager edits one and forgets to regenerate):
# "debian/rules check-selection", which the build runs before the kernel
# tree, must fail with one line naming the gencontrol command to run.
# (The committed debian/control was 16 hunks behind its templates and a
# dpkg-buildpackage from the checkout built the old package names.)

check_case() {
	mkdir -p "$T/repo/patches"
	cp -a "$TOP/debian" "$TOP/lib" "$T/repo/"
	cp -a "$TOP/patches/6.1" "$TOP/patches/apply.sh" "$T/repo/patches/"
	(cd "$T/repo" && debian/bin/gencontrol 6.1 tiny) > /dev/null 2>&1 || { echo "gencontrol 6.1 tiny failed"; return 1; }
	(cd "$T/repo" && make -s -f debian/rules check-selection) > "$T/out" 2>&1 ||
		{ cat "$T/out"; echo "check-selection failed on gencontrol's own output"; return 1; }
	sed -i 's/^Description: Linux .* source tree.*/& (edited)/' "$T/repo/debian/templates/control.source.in"
	if (cd "$T/repo" && make -s -f debian/rules check-selection) > "$T/out" 2> "$T/err"; then
		echo "check-selection passed with a debian/control older than its template"
		return 1
	fi
	grep -v '^make' "$T/err" > "$T/error"
	one_error_line "$T/error" "debian/control is not what debian/bin/gencontrol makes of its inputs now: run debian/bin/gencontrol --suite bookworm --abi 1 6.1 tiny"
}
