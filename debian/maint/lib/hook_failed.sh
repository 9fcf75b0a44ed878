# shellcheck shell=sh
# hook_failed DIR: stop the script for a failed hook in DIR, naming what
# gets the package where it was going once the hook is fixed: dpkg leaves
# a failed postinst's package unconfigured, a failed preinst's not
# installed, a failed prerm's or postrm's not removed
hook_failed() {
	case ${DPKG_MAINTSCRIPT_NAME:-} in
	postinst) _then="run dpkg --configure -a" ;;
	preinst) _then="install $DPKG_MAINTSCRIPT_PACKAGE again" ;;
	*) _then="remove or upgrade $DPKG_MAINTSCRIPT_PACKAGE again" ;;
	esac
	echo "$DPKG_MAINTSCRIPT_PACKAGE: a hook in $1 failed; fix it, then $_then" >&2
	exit 1
}
