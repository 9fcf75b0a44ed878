# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/packages/modules.sh: the test modules built against the trees
# unpacked from the packages (W/root), in place and moved apart, with the
# compiler the object tree pins, for tests/packages.sh, which sources it
# and sets TOP, ABINAME, BUILD_ARCH, W and deb().

# check_pinned REL: the unpacked object tree's Makefile pins the compiler
# the kernel was built with (its .config's CONFIG_CC_VERSION_TEXT), and the
# kbuild package depends on it: gcc-N, or its cross variant gcc-N-<gnu-type>
check_pinned() {
	_o=$W/root/usr/src/linux-kbuild-$1
	_cc=$(sed -n 's/^override CC := //p' "$_o/Makefile")
	[ -n "$_cc" ] || { echo "the object tree's Makefile pins no compiler"; return 1; }
	grep -q "^CONFIG_CC_VERSION_TEXT=\"$_cc (" "$_o/.config" ||
		{ echo "built by $(grep '^CONFIG_CC_VERSION_TEXT' "$_o/.config"), the Makefile pins $_cc"; return 1; }
	_pkg=gcc-${_cc##*-gcc-}
	_gnu=$(echo "${_cc%-gcc-*}" | tr _ -)
	dpkg-deb -f "$(deb "linux-kbuild-$1")" Depends | grep -qF "$_pkg-$_gnu | $_pkg" ||
		{ echo "linux-kbuild-$1 does not depend on '$_pkg-$_gnu | $_pkg'"; return 1; }
	echo "# $1: $_cc, linux-kbuild depends on $_pkg-$_gnu | $_pkg"
}

# relocate REL DIR: the unpacked object tree of REL and the source tree
# copied apart, into DIR/a/obj and DIR/b/src, and the one step the README
# names: the object tree's source link pointed at the source tree
relocate() {
	rm -rf "$2"
	mkdir -p "$2/a" "$2/b"
	cp -a "$W/root/usr/src/linux-kbuild-$1" "$2/a/obj"
	cp -a "$W/root/usr/src/linux-kbuild-source-$ABINAME" "$2/b/src"
	ln -sfn "$2/b/src" "$2/a/obj/source"
}

# check_relocated FLAVOUR: the trees moved apart build both test modules;
# no link of the moved object tree dangles; with the source link
# dangling, or without the kernel's compiler, make says so in one line
check_relocated() {
	_rel=$ABINAME-$1
	relocate "$_rel" "$W/moved"
	_dangling=$(find "$W/moved/a/obj" -xtype l | head -n 3)
	[ -z "$_dangling" ] || { echo "dangling after the move: $_dangling"; return 1; }
	for _m in kbs_plain kbs_private; do
		build_module "$1" "$_m" "$W/moved/a/obj" || return 1
	done
	ln -sfn "$W/nowhere" "$W/moved/a/obj/source"
	if make -C "$W/moved/a/obj" M="$W/mod" > "$W/mod.log" 2>&1; then
		echo "make went on with a dangling source link"
		return 1
	fi
	grep -q "source does not lead to a kernel source tree: point it at one" "$W/mod.log" ||
		{ tail -n 2 "$W/mod.log"; echo "not told that the source link dangles"; return 1; }
	echo "# dangling source link: $(grep -o 'Makefile:[0-9]*: \*\*\* .*' "$W/mod.log" | head -n 1)"
	# and without the kernel's compiler installed (not on PATH), make says which to install
	ln -sfn "$W/moved/b/src" "$W/moved/a/obj/source"
	mkdir -p "$W/nobin"
	if PATH=$W/nobin /usr/bin/make -C "$W/moved/a/obj" M="$W/mod" > "$W/mod.log" 2>&1; then
		echo "make went on without the compiler"
		return 1
	fi
	grep -q "the compiler of this kernel, is not installed: apt-get install" "$W/mod.log" ||
		{ tail -n 2 "$W/mod.log"; echo "not told that the compiler is missing"; return 1; }
	echo "# no compiler: $(grep -o 'Makefile:[0-9]*: \*\*\* .*' "$W/mod.log" | head -n 1)"
}

# build_module FLAVOUR NAME [OBJTREE]: against the trees unpacked from the packages
# (with TRACE set, under strace, its execve calls into the file TRACE),
# cross-compiled for a flavour of another architecture
build_module() {
	_rel=$ABINAME-$1
	_a=$(flavour_arch "$1")
	_obj=${3:-$W/root/usr/src/linux-kbuild-$_rel}
	set -- "$1" "$2" ARCH="$(arch_value "$_a" kernel-arch)"
	[ "$_a" = "$BUILD_ARCH" ] || set -- "$@" CROSS_COMPILE="$(dpkg-architecture -f -a"$_a" -qDEB_HOST_GNU_TYPE 2>/dev/null)-"
	rm -rf "$W/mod"
	cp -r "$TOP/tests/modules/$2" "$W/mod"
	_m=$2
	shift 2
	# shellcheck disable=SC2086 # TRACE: a file name without spaces
	${TRACE:+strace -f -qq -z -e trace=execve -o $TRACE} \
		make -C "$_obj" M="$W/mod" "$@" > "$W/mod.log" 2>&1 || { tail -n 5 "$W/mod.log"; return 1; }
	! grep -A 2 'compiler differs' "$W/mod.log" || return 1
	[ "$(modinfo -F vermagic "$W/mod/$_m.ko" | cut -d' ' -f1)" = "$_rel" ] || { echo "wrong vermagic"; return 1; }
	[ "$(elf_machine "$W/mod/$_m.ko")" = "$(arch_value "$_a" elf-machine)" ] || { echo "$_m.ko is not for $_a"; return 1; }
}

# check_ran_hostprogs FLAVOUR: a module build against the unpacked trees
# runs, of the trees' ELF files, only those of this machine's host programs
# package (strace: every successful execve under W/root), and nothing of
# the build host's trees
check_ran_hostprogs() {
	dpkg-deb -c "$(deb "linux-kbuild-hostprogs-$ABINAME-$1" "$BUILD_ARCH")" |
		awk '{ print $6 }' | sed 's|^\./|/|' | sort > "$W/hostprogs.list"
	TRACE=$W/exec.log build_module "$1" kbs_plain || return 1
	# a relative name is of the object tree, where make runs before 6.13
	sed -n 's|^[0-9]* *execve("\([^"]*\)".*|\1|p' "$W/exec.log" |
		sed "s|^\([^/]\)|$W/root/usr/src/linux-kbuild-$ABINAME-$1/\1|; s|/\./|/|g" | sort -u > "$W/ran"
	grep -q . "$W/ran" || { echo "strace recorded no program run"; return 1; }
	# scripts of the trees run too; every program is the package's
	grep "^$W/root/" "$W/ran" > "$W/ran.trees" || true # none: told below
	while read -r _p; do
		[ -z "$(elf_machine "$_p")" ] || grep -qxF "${_p#"$W/root"}" "$W/hostprogs.list" ||
			{ echo "the build ran ${_p#"$W/root"}, of no host programs package"; return 1; }
	done < "$W/ran.trees"
	grep -q . "$W/ran.trees" || { echo "the build ran nothing of the trees (no fixdep, no modpost?)"; return 1; }
	_from_build=$(grep -e "$OUT/pkg" -e /debian/build/ "$W/ran" | head -n 1) || true # none: good
	[ -z "$_from_build" ] || { echo "the build ran $_from_build of the build host"; return 1; }
	echo "# $ABINAME-$1: ran from the trees: $(grep "^$W/root/" "$W/ran" | sed 's|.*/||' | tr '\n' ' ')"
}
