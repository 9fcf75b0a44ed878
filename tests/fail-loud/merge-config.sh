# Help: a flavour option that does not take effect stops the configuration; one the kernel lacks is a warning
# shellcheck shell=sh
# merge_flavour_config on a stub tree whose olddefconfig drops an option
# that the first of two fragments sets: the function must fail, naming the
# option, its Kconfig dependencies and their values (as a BTF flavour
# without a usable pahole: "PAHOLE_VERSION >= 122 ... PAHOLE_VERSION=0").  (It called die in a "sed | while" subshell, so the error was
# printed, the next fragment's check passed, and the build went on with a
# kernel built without the option, as debian/rules merges the flavour's
# fragment before the one of CONFIG_LOCALVERSION.)  An option that this
# kernel's Kconfig does not define (a fragment shared by several series)
# is a warning naming it, and the configuration goes on.

check_case() {
	mkdir -p "$T/src/scripts/kconfig" "$T/obj"
	# tinyconfig writes an empty .config; merge_config.sh appends the
	# fragments; olddefconfig drops CONFIG_WANTED
	stub make 'for a; do case $a in O=*) o=${a#O=} ;; tinyconfig) : > "$o/.config" ;; olddefconfig) sed -i /CONFIG_WANTED/d "$o/.config" ;; esac; done'
	printf '#!/bin/sh\nout=$3; shift 4\ncat "$@" >> "$out/.config"\n' > "$T/src/scripts/kconfig/merge_config.sh"
	chmod 755 "$T/src/scripts/kconfig/merge_config.sh"
	printf 'config KEPT\n\tbool "kept"\n\nconfig WANTED\n\tbool "wanted"\n\tdepends on PAHOLE_VERSION >= 122\n' > "$T/src/Kconfig"
	printf 'CONFIG_KEPT=y\nCONFIG_WANTED=y\n' > "$T/frag.config"
	printf 'CONFIG_LOCALVERSION="-x"\n' > "$T/local.config"
	if (. "$TOP/lib/kbuild-split.sh" && merge_flavour_config "$T/src" "$T/obj" "$T/frag.config" "$T/local.config") 2> "$T/err"; then
		echo "merge_flavour_config returned 0 although CONFIG_WANTED=y did not take effect"
		return 1
	fi
	one_error_line "$T/err" "frag.config: CONFIG_WANTED=y did not take effect (.config has CONFIG_WANTED=n); check its dependencies: (PAHOLE_VERSION >= 122) (.config: PAHOLE_VERSION=n)" || return 1
	# an option of no Kconfig here: a warning, and success
	stub make 'for a; do case $a in O=*) o=${a#O=} ;; tinyconfig) : > "$o/.config" ;; olddefconfig) sed -i /CONFIG_GONE/d "$o/.config" ;; esac; done'
	printf 'CONFIG_KEPT=y\nCONFIG_GONE=y\n' > "$T/frag.config"
	(. "$TOP/lib/kbuild-split.sh" && merge_flavour_config "$T/src" "$T/obj" "$T/frag.config" "$T/local.config") 2> "$T/err" ||
		{ cat "$T/err"; echo "merge_flavour_config failed on an option its kernel does not have"; return 1; }
	one_error_line "$T/err" "frag.config: CONFIG_GONE is no option of this kernel: ignored"
}
