# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/packages/contents.sh: what each package of a build holds (image,
# object tree and its links, source tree, the source package), its
# relations, and where
# the suite has it, for tests/packages.sh, which sources it and sets TOP,
# SUITE, MODULES_DIR, SERIES, ABINAME, DEBS, PACKAGES, W and deb(),
# contents(), has_files() and pkg_arch().

check_image() {
	_d=$(deb "linux-image-$1")
	_m=${MODULES_DIR#/}/$1
	has_files "$_d" "boot/vmlinuz-$1" "boot/System.map-$1" "boot/config-$1" \
		"$_m/modules.order" "$_m/modules.builtin" || return 1
	grep -q "^$_m/kernel/.*\.ko$" "$W/list" || { echo "no module in linux-image-$1 under $MODULES_DIR"; return 1; }
	! grep -q "^$_m/\(build\|source\)\b" "$W/list" ||
		{ echo "linux-image-$1 ships a build or source link"; return 1; }
}

# usr_src_link NAME: the target of a link in MODULES_DIR/<rel> to
# /usr/src/NAME: relative within /usr, absolute from elsewhere (Policy 10.5)
usr_src_link() {
	case $MODULES_DIR in
	/usr/*) printf '%s/../src/%s\n' "$(printf '%s\n' "${MODULES_DIR#/usr/}" | sed 's|[^/][^/]*|..|g')" "$1" ;;
	*) printf '/usr/src/%s\n' "$1" ;;
	esac
}

# doc_link PACKAGE TARGET: PACKAGE's doc directory is a link to TARGET's
doc_link() {
	contents "$(deb "$1")" > "$W/doc"
	grep -qxF "usr/share/doc/$1 -> $2" "$W/doc" ||
		{ echo "usr/share/doc/$1 is no link to $2: $(grep "^usr/share/doc/$1" "$W/doc" | head -n 2 | tr '\n' ' ')"; return 1; }
}

# check_doc_links FLAVOUR: the flavour's image, object tree and host
# programs have the copyright; the metapackages link their doc directory
# to that of the one they depend on exactly (Policy 12.5)
check_doc_links() {
	for _p in image kbuild; do
		has_files "$(deb "linux-$_p-$ABINAME-$1")" "usr/share/doc/linux-$_p-$ABINAME-$1/copyright" || return 1
	done
	has_files "$(deb "linux-kbuild-hostprogs-$ABINAME-$1" "$BUILD_ARCH")" \
		"usr/share/doc/linux-kbuild-hostprogs-$ABINAME-$1/copyright" || return 1
	doc_link "linux-image-$SERIES-$1" "linux-image-$ABINAME-$1" &&
		doc_link "linux-kbuild-$SERIES-$1" "linux-kbuild-$ABINAME-$1"
}

# check_not_aliased: on a merged-/usr suite, no package of the build has a
# path in /lib, /bin or /sbin, which are links to /usr there (dpkg's
# handling of such files is undefined; lintian: aliased-location)
check_not_aliased() {
	case $MODULES_DIR in
	/usr/*) ;;
	*) echo "# $SUITE installs into $MODULES_DIR: not merged-/usr"; return 0 ;;
	esac
	for _p in $PACKAGES; do
		_a=$(contents "$(deb "$_p" "$(pkg_arch "$_p")")" | grep -E '^(lib|lib32|lib64|bin|sbin)(/|$)' | head -n 1)
		[ -z "$_a" ] || { echo "$_p ships $_a in an aliased directory"; return 1; }
	done
	echo "# $SUITE: no path in /lib, /bin or /sbin in $(echo "$PACKAGES" | wc -w) packages"
}

# check_kbuild REL: the object tree (System.map too, not a link to the
# image's: it works without the image), its links (these and no others), and
# its host programs in the same directory, from the hostprogs package
check_kbuild() {
	_d=usr/src/linux-kbuild-$1
	has_files "$(deb "linux-kbuild-$1")" "$_d/Makefile" "$_d/.config" "$_d/Module.symvers" \
		"$_d/include/config/auto.conf" "$_d/include/generated/autoconf.h" "$_d/source" "$_d/System.map" ||
		return 1
	has_files "$(deb "linux-kbuild-hostprogs-$1" "$BUILD_ARCH")" "$_d/scripts/mod/modpost" \
		"$_d/scripts/basic/fixdep" || return 1
	contents "$(deb "linux-kbuild-$1")" | grep ' -> ' | sort > "$W/links"
	printf '%s\n' "$_d/source -> ../linux-kbuild-source-$ABINAME" \
		"${MODULES_DIR#/}/$1/build -> $(usr_src_link "linux-kbuild-$1")" \
		"${MODULES_DIR#/}/$1/source -> $(usr_src_link "linux-kbuild-source-$ABINAME")" | sort > "$W/links.want"
	cmp -s "$W/links" "$W/links.want" || { echo "links: $(diff "$W/links.want" "$W/links" | grep '^[<>]' | head -n 3 | tr '\n' ' ')"; return 1; }
}

# check_relations REL: what dpkg and apt need to know of REL's packages
check_relations() {
	_k=$(dpkg-deb -f "$(deb "linux-kbuild-$1")" Provides Depends Breaks)
	_i=$(dpkg-deb -f "$(deb "linux-image-$1")" Breaks)
	_v=$(dpkg-deb -f "$(deb "linux-kbuild-$1")" Version)
	for _want in "linux-headers-$1" "linux-kbuild-source-$ABINAME (= $_v)" \
		"linux-kbuild-hostprogs-$1 (>= $_v)" "linux-image-$1 (<< $_v)" "linux-image-$1 (>> $_v)"; do
		printf '%s\n' "$_k" | grep -qF -- "$_want" || { echo "linux-kbuild-$1 lacks '$_want'"; return 1; }
	done
	printf '%s\n' "$_i" | grep -qF "linux-kbuild-$1 (<< $_v)" || { echo "linux-image-$1 does not break other kbuilds"; return 1; }
	_bu=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' "linux-source-$SERIES" 2>/dev/null) ||
		{ echo "linux-source-$SERIES is not installed: the Built-Using check needs it"; return 1; }
	for _kind in image kbuild kbuild-hostprogs; do
		[ "$(dpkg-deb -f "$(deb "linux-$_kind-$1" "$(pkg_arch "linux-$_kind-$1")")" Built-Using)" = "$_bu" ] ||
			{ echo "linux-$_kind-$1 has no Built-Using: $_bu"; return 1; }
	done
	[ "$(dpkg-deb -f "$(deb "linux-kbuild-hostprogs-$1" "$BUILD_ARCH")" Multi-Arch)" = foreign ] ||
		{ echo "linux-kbuild-hostprogs-$1 is not Multi-Arch: foreign"; return 1; }
}

check_srctree() {
	_d=usr/src/linux-kbuild-source-$ABINAME
	has_files "$(deb "linux-kbuild-source-$ABINAME")" "$_d/Makefile" "$_d/Kconfig" "$_d/include/linux/module.h" \
		"$_d/scripts/Makefile.build" "$_d/arch/x86/Makefile" "$_d/arch/arm64/Makefile" \
		"$_d/arch/arm64/include/asm/module.h" "$_d/drivers/base/base.h" "$_d/mm/slab.h" || return 1
	[ "$(dpkg-deb -f "$(deb "linux-kbuild-source-$ABINAME")" Architecture)" = all ] || { echo "not Architecture: all"; return 1; }
	# lean: nothing that only builds the documentation, samples or tools, no patch leftovers
	_extra=$(grep -e "^$_d/\(Documentation\|samples\|tools\)/" -e '\.\(orig\|rej\)$' "$W/list" | head -n 3)
	[ -z "$_extra" ] || { echo "the source tree ships $(echo "$_extra" | tr '\n' ' ')"; return 1; }
	# of arch/, the kernel architectures of debian/arches/ alone
	_want=$(for _p in "$TOP"/debian/arches/*; do arch_value "${_p##*/}" kernel-arch; done | sort | tr '\n' ' ')
	_have=$(sed -n "s|^$_d/arch/\([^/]*\)/.*|\1|p" "$W/list" | sort -u | tr '\n' ' ')
	[ "$_have" = "$_want" ] || { echo "the source tree's arch/ has: $_have; debian/arches/: $_want"; return 1; }
	echo "# linux-kbuild-source-$ABINAME: $(grep -cv '/$' "$W/list") paths, Installed-Size $(dpkg-deb -f "$(deb "linux-kbuild-source-$ABINAME")" Installed-Size) KiB"
}

# check_source_package: the build's source package (native: its .tar.xz
# beside the .dsc) holds the packaging, the patches and the shell library
# alone, no private key; its version ends in "~testcert" exactly when the
# certificate its kernels trust (debian/certs/trusted.pem) is one of
# tests/keys (fingerprint)
check_source_package() {
	_dsc=$(manifest_get "$DEBS" file series="$SERIES" kind=dsc) || return 1
	_v=$(manifest_get "$DEBS" version series="$SERIES" kind=source) || return 1
	_tar=${_dsc%.dsc}.tar.xz
	[ -f "$_tar" ] || { echo "no ${_tar##*/} beside ${_dsc##*/}"; return 1; }
	rm -rf "$W/srcpkg"
	mkdir -p "$W/srcpkg"
	tar -xJf "$_tar" -C "$W/srcpkg" || { echo "cannot unpack ${_tar##*/}"; return 1; }
	_top=$(cd "$W/srcpkg"/* && ls -A | tr '\n' ' ')
	[ "$_top" = "debian lib patches " ] || { echo "${_tar##*/} holds $_top(not debian lib patches)"; return 1; }
	grep -q '^Testsuite: autopkgtest$' "$_dsc" || { echo "${_dsc##*/} has no Testsuite: autopkgtest (debian/tests)"; return 1; }
	_keys=$(grep -rlF 'PRIVATE KEY-----' "$W/srcpkg" | head -n 3 || true) # none is the good case
	[ -z "$_keys" ] || { echo "private key in the source package: $_keys"; return 1; }
	_cert=$(echo "$W/srcpkg"/*/debian/certs/trusted.pem)
	_test=
	_trust="no packager certificate"
	if [ -f "$_cert" ]; then
		_trust="the packager certificate $(openssl x509 -in "$_cert" -noout -subject)"
		! is_test_certificate "$_cert" || _test="a certificate of tests/keys"
	fi
	case $_v:$_test in
	*~testcert:?*) echo "# $_v: trusts $_test" ;;
	*~testcert:) echo "version $_v says testcert, but the packages trust no certificate of tests/keys"; return 1 ;;
	*:?*) echo "version $_v does not say that the packages trust $_test (~testcert)"; return 1 ;;
	*) echo "# $_v: trusts $_trust" ;;
	esac
}
