# Help: a patch that applies only with fuzz stops patches/apply.sh, naming it and its first failing hunk, and leaves no tree
# shellcheck shell=sh
# patches/apply.sh on a made-up series against a made-up tarball, whose
# patch has one context line that differs from the tree: patch(1) would
# apply it with fuzz 1 (and did, silently, before --fuzz=0).

check_case() {
	mkdir -p "$T/top/patches/9.9" "$T/top/lib" "$T/linux-9.9"
	cp "$TOP/patches/apply.sh" "$T/top/patches/"
	cp "$TOP"/lib/*.sh "$T/top/lib/"
	seq 1 20 > "$T/linux-9.9/numbers"
	tar -C "$T" -cJf "$T/linux-source-9.9.tar.xz" linux-9.9
	# line 9 of the context says "nine", the tree has "9"
	cat > "$T/top/patches/9.9/0001-change-ten.patch" <<-'EOP'
	--- a/numbers
	+++ b/numbers
	@@ -8,5 +8,5 @@
	 8
	 nine
	-10
	+ten
	 11
	 12
	EOP
	echo 0001-change-ten.patch > "$T/top/patches/9.9/series"
	if KBS_TARBALL=$T/linux-source-9.9.tar.xz "$T/top/patches/apply.sh" 9.9 "$T/tree" > "$T/out" 2> "$T/err"; then
		echo "apply.sh exited 0 with a patch that needs fuzz"
		return 1
	fi
	grep -q "patch patches/9.9/0001-change-ten.patch does not apply exactly (fuzz 0) to linux-source-9.9, first at numbers hunk #1 (line 8)" "$T/err" ||
		{ echo "no error naming the patch: $(tail -n 1 "$T/err")"; return 1; }
	! [ -e "$T/tree" ] || { echo "a tree was left at $T/tree"; return 1; }
	[ -z "$(find "$T" -maxdepth 1 -name '.apply.*')" ] || { echo "a scratch tree was left in $T"; return 1; }
}
