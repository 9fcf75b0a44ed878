# Help: a pinned compiler apt cannot install stops build-kernel.sh in one line naming it, nothing built
# shellcheck shell=sh
# A copy of the packaging whose debian/config/compiler pins gcc-99 for
# bookworm; build-kernel.sh --flavours tiny, with dpkg-buildpackage and
# apt-get (which cannot install it) stubbed: non-zero exit, one error line
# naming gcc-99, dpkg-buildpackage never run, no out/debs.

check_case() {
	stub dpkg-buildpackage 'touch ../linux-image-stub_1_amd64.deb'
	stub apt-get 'case $1 in update) exit 0 ;; esac; echo "E: Some packages could not be installed."; exit 100'
	mkdir -p "$T/repo"
	cp -a "$TOP/build-kernel.sh" "$TOP/lib" "$TOP/debian" "$TOP/patches" "$T/repo/"
	rm -rf "$T/repo/debian/build"
	printf 'bookworm\tgcc-99\n' > "$T/repo/debian/config/compiler"
	if KBS_OUT=$T/out "$T/repo/build-kernel.sh" --flavours tiny > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh exited 0 with gcc-99 pinned"
		return 1
	fi
	grep error: "$T/err" > "$T/error"
	one_error_line "$T/error" "gcc-99" || return 1
	! grep -q '^dpkg-buildpackage' "$T/calls" || { echo "dpkg-buildpackage ran"; return 1; }
	! [ -d "$T/out/debs" ] || { echo "out/debs made: $(ls "$T/out/debs")"; return 1; }
}
