# Help: install-extmod-build --objtree stops when tar cannot read a file of its lists
# shellcheck shell=sh
# The patched scripts/package/install-extmod-build of 6.1 (the series on
# the tarball's Makefile), run with --objtree in a made-up
# output directory whose configuration enables objtool but which has no
# tools/objtool/objtool: it must exit non-zero, saying so, instead of
# installing the object half without objtool.  (In "tar -c | tar -x" the
# status of tar -c was lost: exit 0.)

check_case() {
	_tarball=$(kernel_tarball 6.1)
	[ -r "$_tarball" ] || { echo "no $_tarball: apt-get install linux-source-6.1"; return 1; }
	mkdir -p "$T/src" "$T/obj/scripts" "$T/obj/include/config" "$T/obj/include/generated" \
		"$T/obj/arch/x86/include/generated"
	tar -xJf "$_tarball" -C "$T/src" --strip-components=1 linux-source-6.1/Makefile
	data_lines "$TOP/patches/6.1/series" > "$T/series"
	while read -r _p; do
		patch -d "$T/src" -p1 --fuzz=0 -s --no-backup-if-mismatch < "$TOP/patches/6.1/$_p" ||
			{ echo "$_p does not apply"; return 1; }
	done < "$T/series"
	echo CONFIG_OBJTOOL=y | tee "$T/obj/.config" > "$T/obj/include/config/auto.conf"
	for _f in System.map Makefile Module.symvers include/config/kernel.release; do
		touch "$T/obj/$_f"
	done
	_rc=0
	(cd "$T/obj" && env srctree="$T/src" SRCARCH=x86 CC=gcc HOSTCC=gcc MAKE=make \
		sh "$T/src/scripts/package/install-extmod-build" --objtree "$T/dest" ../source) \
		> "$T/out" 2> "$T/err" || _rc=$?
	[ "$_rc" -ne 0 ] || { echo "install-extmod-build --objtree exited 0 without tools/objtool/objtool"; return 1; }
	grep -q 'tools/objtool/objtool: Cannot stat' "$T/err" || { cat "$T/err"; echo "tar did not name the file"; return 1; }
	grep -q '^install-extmod-build: tar could not read every file' "$T/err" ||
		{ cat "$T/err"; echo "no line saying the installation stopped"; return 1; }
}
