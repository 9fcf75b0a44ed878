# Help: a signing certificate that cannot be read stops build-kernel.sh at once
# shellcheck shell=sh
# build-kernel.sh --trusted-cert with a file that does not exist, and with
# one that is no certificate (a private key), dpkg-buildpackage, apt-get
# and debootstrap stubbed: one error line naming the option and the fix,
# non-zero exit, nothing run, nothing made in out/.

# refused FILE: build-kernel.sh --trusted-cert FILE fails with the one line
refused() {
	if KBS_OUT=$T/out KBS_BUILDENV_DIR=$T/buildenv "$TOP/build-kernel.sh" --series 7.3 --flavours tiny \
		--trusted-cert "$1" > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh --trusted-cert $1 exited 0"
		return 1
	fi
	one_error_line "$T/err" "error: --trusted-cert $1: no PEM X.509 certificate can be read there.*openssl x509" || return 1
	! [ -s "$T/calls" ] || { echo "it ran: $(cat "$T/calls")"; return 1; }
	[ -z "$(ls "$T/out")" ] || { echo "build-kernel.sh made $(ls "$T/out" | tr '\n' ' ')in out/"; return 1; }
}

check_case() {
	for _c in dpkg-buildpackage apt-get debootstrap chroot; do
		stub "$_c" 'exit 1'
	done
	mkdir -p "$T/out"
	refused "$T/nosuch.pem" || return 1
	refused "$TOP/tests/keys/other.key" || return 1
}
