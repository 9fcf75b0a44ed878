# Help: a suite that is unknown, or does not build the series, stops build-kernel.sh and qemu-test at once
# shellcheck shell=sh
# build-kernel.sh --suite sid --series 7.3 and --suite trixie --series 6.1
# (trixie has no linux-source-6.1), with dpkg-buildpackage, apt-get,
# debootstrap and chroot stubbed: one error line naming the supported
# suites and series, non-zero exit, nothing run, no build environment or
# output directory made.  qemu-test/run with KBS_SUITE=sid: one line
# naming the suites.

# refused ARG...: build-kernel.sh ARG... fails with the one line
refused() {
	if KBS_OUT=$T/out KBS_BUILDENV_DIR=$T/buildenv "$TOP/build-kernel.sh" "$@" > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh $* exited 0"
		return 1
	fi
	one_error_line "$T/err" "suite '.*' with series '.*' is not supported; pick one of: bookworm 6.1, .*trixie 7.3" ||
		return 1
	! [ -s "$T/calls" ] || { echo "it ran: $(cat "$T/calls")"; return 1; }
	! [ -e "$T/buildenv" ] || { echo "build-kernel.sh $* made $T/buildenv"; return 1; }
	[ "$(ls "$T/out")" = debs ] || { echo "build-kernel.sh $* made $(ls "$T/out" | tr '\n' ' ')in out/"; return 1; }
}

check_case() {
	for _c in dpkg-buildpackage apt-get debootstrap chroot; do
		stub "$_c" 'exit 1'
	done
	mkdir -p "$T/out/debs"
	refused --suite sid --series 7.3 || return 1
	refused --suite trixie --series 6.1 --flavours tiny || return 1
	_rc=0
	KBS_OUT=$T/out KBS_SUITE=sid "$TOP/qemu-test/run" > "$T/out.log" 2> "$T/err" || _rc=$?
	[ "$_rc" -ne 0 ] || { echo "qemu-test/run with KBS_SUITE=sid exited 0"; return 1; }
	one_error_line "$T/err" "KBS_SUITE=sid: no such target suite; pick one of: bookworm trixie" || return 1
}
