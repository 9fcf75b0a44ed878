# Help: a failed dpkg-buildpackage leaves no .deb of that build in out/debs
# shellcheck shell=sh
# build-kernel.sh --flavours tiny with a dpkg-buildpackage that makes a
# .deb and then fails with status 2: non-zero exit, the log's tail shown,
# the status named (it said "exit unknown": set -e ended the pipe's left
# side before it wrote the status), the .deb of the failed build not
# collected, an earlier build's .deb kept.

check_case() {
	stub dpkg-buildpackage 'echo "  CC      init/main.o"; touch ../linux-image-half_1_amd64.deb; exit 2'
	stub apt-get 'exit 1'
	mkdir -p "$T/out/debs"
	echo kept > "$T/out/debs/earlier_1_all.deb"
	if KBS_OUT=$T/out "$TOP/build-kernel.sh" --flavours tiny > "$T/out.log" 2> "$T/err"; then
		echo "build-kernel.sh exited 0 although dpkg-buildpackage failed"
		return 1
	fi
	grep -q 'dpkg-buildpackage' "$T/calls" || { echo "dpkg-buildpackage was not run: $(tail -n 1 "$T/err")"; return 1; }
	grep -q 'failed; last lines of' "$T/err" || { echo "no failure message: $(tail -n 3 "$T/err")"; return 1; }
	grep -q 'error: dpkg-buildpackage for amd64 failed (exit 2)$' "$T/err" ||
		{ echo "dpkg-buildpackage's status is not named: $(grep error: "$T/err")"; return 1; }
	[ "$(ls "$T/out/debs")" = earlier_1_all.deb ] || { echo "out/debs holds: $(ls "$T/out/debs" | tr '\n' ' ')"; return 1; }
}
