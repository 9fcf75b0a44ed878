# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The build manifest: what build-kernel.sh made, written once by it and
# read by everything else (tests, qemu-test, bench) instead of guessing
# from file names.  Sourced by build-kernel.sh (which writes it) and by its
# readers; needs log/die (lib/kbuild-split.sh).
#
# DEBS/manifest, beside the .debs it names: a tab-separated line a file,
#   series upstream abi abiname flavour arch kind package version file sha256
# e.g. 6.1 6.1.192 1 6.1.192-1 qemu amd64 image linux-image-6.1.192-1-qemu
# 0.1 linux-image-6.1.192-1-qemu_0.1_amd64.deb <sha256>.  kind is one of
#   image kbuild hostprogs source meta-image meta-kbuild: a .deb, file
#     relative to DEBS (flavour "-" for source);
#   changes dsc: the build's .changes (one per architecture) and .dsc,
#     file absolute (flavour and package "-");
#   tree: the patched tree and O= directories the build kept
#     (out/pkg/<series>/<arch>/kbuild-split/debian/build), absolute,
#     sha256 "-".
# A build replaces every line of its series in DEBS/manifest: the manifest
# says what the last build of each series put there.

MANIFEST_FIELDS="series upstream abi abiname flavour arch kind package version file sha256"

# manifest_rows DEBS [FIELD=VALUE...]: the manifest's lines that have
# those values; fails when DEBS has no manifest
manifest_rows() {
	_mr_file=$1/manifest
	shift
	[ -r "$_mr_file" ] || { log "no build manifest $_mr_file: build first (./build-kernel.sh)"; return 1; }
	awk -F '\t' -v fields="$MANIFEST_FIELDS" -v want="$*" '
	BEGIN {
		n = split(fields, f, " ")
		for (i = 1; i <= n; i++) col[f[i]] = i
		m = split(want, w, " ")
		for (i = 1; i <= m; i++) {
			k = substr(w[i], 1, index(w[i], "=") - 1)
			if (!(k in col)) { print "manifest: no field " k > "/dev/stderr"; exit 2 }
			key[i] = col[k]
			val[i] = substr(w[i], index(w[i], "=") + 1)
		}
	}
	/^#/ { next }
	{
		for (i = 1; i <= m; i++) if ($key[i] != val[i]) next
		print
	}' "$_mr_file"
}

# manifest_column FIELD: FIELD's column in the manifest (MANIFEST_FIELDS)
manifest_column() {
	# shellcheck disable=SC2086 # one field a line
	_mc=$(printf '%s\n' $MANIFEST_FIELDS | grep -nx -- "$1" | cut -d: -f1)
	[ -n "$_mc" ] || { log "manifest: no field $1 (fields: $MANIFEST_FIELDS)"; return 1; }
	printf '%s\n' "$_mc"
}

# manifest_values DEBS FIELD ROWS: FIELD of each of ROWS (manifest
# lines); a .deb's file comes with DEBS' path
manifest_values() {
	_mv_c=$(manifest_column "$2") || return 1
	_mv_file=$(manifest_column file)
	printf '%s\n' "$3" | awk -F '\t' -v c="$_mv_c" -v file="$_mv_file" -v debs="$1" '
	NF == 0 { next }
	{ v = $c; if (c == file && v !~ /^\//) v = debs "/" v; print v }'
}

# manifest_get DEBS FIELD [FIELD=VALUE...]: FIELD of the one line with
# those values; fails naming the build to run when there is none, and the
# lines when there are several.  A .deb's file comes with DEBS' path.
manifest_get() {
	_mg_debs=$1
	_mg_field=$2
	shift 2
	_mg_rows=$(manifest_rows "$_mg_debs" "$@") || return 1
	case $(printf '%s' "$_mg_rows" | grep -c '^') in
	0) log "$_mg_debs/manifest has no line of $*: build it (./build-kernel.sh), or point to the directory holding it"
		return 1 ;;
	1) ;;
	*) log "$_mg_debs/manifest has several lines of $*: name one more of: $MANIFEST_FIELDS"
		return 1 ;;
	esac
	manifest_values "$_mg_debs" "$_mg_field" "$_mg_rows"
}

# manifest_debs DEBS [FIELD=VALUE...]: the paths of the .debs of the
# lines with those values
manifest_debs() {
	_md_rows=$(manifest_rows "$@") || return 1
	_md_files=$(manifest_values "$1" file "$_md_rows") || return 1
	printf '%s\n' "$_md_files" | grep '\.deb$' || true # a build's own lines alone: no .deb
}

# manifest_series DEBS: the series DEBS holds builds of, one a line;
# fails, naming the build to run, when it holds none
manifest_series() {
	_ms=$(manifest_list "$1" series kind=source) || return 1
	[ -n "$_ms" ] || { log "$1/manifest names no build: run ./build-kernel.sh first"; return 1; }
	printf '%s\n' "$_ms"
}

# manifest_flavours DEBS SERIES: the flavours of SERIES' build in DEBS, in
# the order of its selection, on one line
manifest_flavours() {
	_mf=$(manifest_list "$1" flavour series="$2" kind=image) || return 1
	[ -n "$_mf" ] || { log "$1/manifest has no build of $2: build it first (./build-kernel.sh --series $2)"; return 1; }
	printf '%s\n' "$_mf" | tr '\n' ' ' | sed 's/ $/\n/'
}

# manifest_list DEBS FIELD [FIELD=VALUE...]: the distinct values of FIELD
# in the lines with those values, in the manifest's order
manifest_list() {
	_ml_debs=$1
	_ml_field=$2
	shift 2
	_ml_rows=$(manifest_rows "$_ml_debs" "$@") || return 1
	_ml_values=$(manifest_values "$_ml_debs" "$_ml_field" "$_ml_rows") || return 1
	printf '%s\n' "$_ml_values" | awk 'NF > 0 && !seen[$0]++'
}
