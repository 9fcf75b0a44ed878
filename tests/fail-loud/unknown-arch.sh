# Help: a flavour of an architecture debian/arches/ does not know stops build-kernel.sh before it builds or installs anything
# shellcheck shell=sh
# A copy of the packaging with one more flavour, "# Arch: sparc64";
# build-kernel.sh --flavours tiny,sparcy with dpkg-buildpackage and
# apt-get stubbed: one error line naming the architecture and the fix,
# non-zero exit, nothing built or installed.

check_case() {
	stub dpkg-buildpackage 'touch ../linux-image-stub_1_amd64.deb'
	stub apt-get 'exit 1'
	mkdir -p "$T/repo"
	cp -a "$TOP/build-kernel.sh" "$TOP/lib" "$TOP/debian" "$TOP/patches" "$T/repo/"
	# a package build run in the repository leaves its trees there
	rm -rf "$T/repo/debian/build"
	printf '# Help: made up\n# Arch: sparc64\n' > "$T/repo/debian/flavours/sparcy.config"
	if KBS_OUT=$T/out "$T/repo/build-kernel.sh" --series 6.12 --flavours tiny,sparcy > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh --flavours tiny,sparcy exited 0"
		return 1
	fi
	one_error_line "$T/err" "architecture 'sparc64', which debian/arches/ does not know: add debian/arches/sparc64" || return 1
	! [ -s "$T/calls" ] || { echo "it ran: $(cat "$T/calls")"; return 1; }
	! [ -d "$T/out/debs" ] || { echo "out/debs made: $(ls "$T/out/debs")"; return 1; }
}
