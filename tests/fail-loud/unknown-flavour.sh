# Help: an unknown flavour stops build-kernel.sh before it builds or installs anything
# shellcheck shell=sh
# build-kernel.sh --series 6.12 --flavours bogus, with dpkg-buildpackage and
# apt-get stubbed: one error line naming the flavours there are, non-zero
# exit, nothing built or installed, out/debs untouched.  (gencontrol's
# failure was lost in a pipe and the previous selection was built, exit 0.)

check_case() {
	stub dpkg-buildpackage 'touch ../linux-image-stub_1_amd64.deb'
	stub apt-get 'exit 1'
	mkdir -p "$T/out/debs"
	echo kept > "$T/out/debs/earlier_1_all.deb"
	if KBS_OUT=$T/out "$TOP/build-kernel.sh" --series 6.12 --flavours bogus > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh --flavours bogus exited 0"
		return 1
	fi
	one_error_line "$T/err" "no flavour 'bogus': add debian/flavours/bogus.config, or pick one of: " || return 1
	! [ -s "$T/calls" ] || { echo "it ran: $(cat "$T/calls")"; return 1; }
	[ "$(ls "$T/out/debs")" = earlier_1_all.deb ] || { echo "out/debs changed: $(ls "$T/out/debs")"; return 1; }
}
