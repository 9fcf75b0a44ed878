# Help: a flavour whose packages dpkg-buildpackage did not all make fails the build, out/debs untouched
# shellcheck shell=sh
# build-kernel.sh --flavours tiny with a dpkg-buildpackage that makes every
# package of the flavour but its host programs: non-zero exit, one error
# line naming the missing package kind, the flavour and the architecture,
# nothing collected into out/debs and no manifest there.  (The build
# collected whatever .debs there were: a flavour that built nothing
# passed.)

check_case() {
	stub_build hostprogs
	stub apt-get 'exit 1'
	mkdir -p "$T/out/debs"
	if KBS_OUT=$T/out "$TOP/build-kernel.sh" --flavours tiny > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh exited 0 without the host programs package"
		return 1
	fi
	grep error: "$T/err" > "$T/error"
	one_error_line "$T/error" "the build made no hostprogs package of flavour tiny for amd64" || return 1
	[ -z "$(ls "$T/out/debs")" ] || { echo "out/debs holds: $(ls "$T/out/debs" | tr '\n' ' ')"; return 1; }
}
