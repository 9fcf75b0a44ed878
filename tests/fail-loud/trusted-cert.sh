# Help: a signing certificate that cannot be read, or one of the tests' outside the tests, stops build-kernel.sh at once
# shellcheck shell=sh
# build-kernel.sh --trusted-cert with a file that does not exist, and with
# one that is no certificate (a private key), and with a copy of the
# tests' trusted certificate (tests/keys) outside --for-tests,
# dpkg-buildpackage, apt-get
# and debootstrap stubbed: one error line naming the option and the fix,
# non-zero exit, nothing run, nothing made in out/.

# refused FILE [MESSAGE]: build-kernel.sh --trusted-cert FILE fails with
# the one line (MESSAGE, a grep pattern; default: no certificate there)
refused() {
	if KBS_OUT=$T/out KBS_BUILDENV_DIR=$T/buildenv "$TOP/build-kernel.sh" --series 7.3 --flavours tiny \
		--trusted-cert "$1" > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh --trusted-cert $1 exited 0"
		return 1
	fi
	one_error_line "$T/err" "error: --trusted-cert $1: ${2:-no PEM X.509 certificate can be read there.*openssl x509}" || return 1
	! [ -s "$T/calls" ] || { echo "it ran: $(cat "$T/calls")"; return 1; }
	[ -z "$(ls "$T/out")" ] || { echo "build-kernel.sh made $(ls "$T/out" | tr '\n' ' ')in out/"; return 1; }
}

check_case() {
	unset KBS_FOR_TESTS
	for _c in dpkg-buildpackage apt-get debootstrap chroot; do
		stub "$_c" 'exit 1'
	done
	mkdir -p "$T/out"
	refused "$T/nosuch.pem" || return 1
	refused "$TOP/tests/keys/other.key" || return 1
	# a copy elsewhere is still the tests' certificate (its fingerprint)
	cp "$TOP/tests/keys/trusted.crt" "$T/mine.crt"
	refused "$T/mine.crt" "a certificate of tests/keys, whose private key is public.*give your own" || return 1
	grep 'error:' "$T/err" | sed 's/^/# /'
}
