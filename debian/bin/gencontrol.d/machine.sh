# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# debian/bin/gencontrol.d/machine.sh: what gencontrol reads of the machine
# it runs on besides the repository: the installed linux-source (its
# version and release date) and the packager (DEBFULLNAME, DEBEMAIL).
# Sourced by gencontrol; needs die (lib/kbuild-split.sh).

# source_version SERIES: the installed linux-source-SERIES's version
# (6.1.192-3), which must have a Debian revision
source_version() {
	_v=$(dpkg-query -W -f='${Version}' "linux-source-$1" 2>/dev/null) ||
		die "linux-source-$1 is not installed: apt-get install linux-source-$1"
	case $_v in
	*-*) printf '%s\n' "$_v" ;;
	*) die "linux-source-$1 $_v has no Debian revision: install Debian's linux-source-$1" ;;
	esac
}

# source_date SERIES: the date of linux-source-SERIES's release, the
# mtime of its tarball (Debian's reproducible build sets it to its
# changelog's date)
source_date() {
	_t=$(kernel_tarball "$1")
	stat -c %Y "$_t" 2>/dev/null ||
		die "$_t is missing: apt-get install --reinstall linux-source-$1"
}

# packager: the Maintainer of the packages, "NAME <ADDRESS>", as dch takes
# it: DEBFULLNAME and DEBEMAIL (or DEBEMAIL "NAME <ADDRESS>"); neither, a
# placeholder that says so
packager() {
	_name=${DEBFULLNAME:-}
	_mail=${DEBEMAIL:-}
	case $_mail in
	*'<'*'>')
		[ -n "$_name" ] || _name=$(printf '%s\n' "${_mail%%<*}" | sed 's/ *$//')
		_mail=${_mail##*<}
		_mail=${_mail%>} ;;
	esac
	if [ -z "$_name$_mail" ]; then
		printf '%s\n' "kbuild-split placeholder <set-DEBFULLNAME-and-DEBEMAIL@kbuild-split.invalid>"
		return
	fi
	case $_name in
	'' | *[,\<\>\|\&\\]*) die "DEBFULLNAME '$_name': give the packager's name, without , < > | & or \\ (export DEBFULLNAME=\"Your Name\")" ;;
	esac
	case $_mail in
	*[!A-Za-z0-9@._+-]*) ;;
	*@*.*)
		printf '%s <%s>\n' "$_name" "$_mail"
		return ;;
	esac
	die "DEBEMAIL '$_mail': give the packager's address (export DEBEMAIL=you@example.org)"
}
