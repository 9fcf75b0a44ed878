# SPDX-License-Identifier: GPL-2.0
# debian/bin/check-copyright.d/check.awk, for awk -F "\t" with COPYRIGHT
# and the lines of scan.awk, and -v prog, copyright, table: the summary
# and the findings
function normalize(id) {
	if (id ~ /^A?L?GPL-[0-9.]+\+$/)
		sub(/\+$/, "-or-later", id)
	else if (id ~ /^A?L?GPL-[0-9.]+$/)
		id = id "-only"
	return id
}
# the DNF of the expression from token tk on: "A+B|C" for (A AND B) OR C
function expr_or(d) {
	d = expr_and()
	while (toupper(tok[tk]) == "OR") {
		tk++
		d = d "|" expr_and()
	}
	return d
}
function expr_and(d, e, a, b, na, nb, i, j) {
	d = expr_with()
	while (toupper(tok[tk]) == "AND") {
		tk++
		e = expr_with()
		na = split(d, a, "|"); nb = split(e, b, "|"); d = ""
		for (i = 1; i <= na; i++)
			for (j = 1; j <= nb; j++)
				d = d (d == "" ? "" : "|") a[i] "+" b[j]
	}
	return d
}
function expr_with(d) {
	if (tok[tk] == "(") {
		tk++
		d = expr_or()
		if (tok[tk] == ")")
			tk++
	} else
		d = normalize(tok[tk++])
	if (toupper(tok[tk]) == "WITH")
		tk += 2
	return d
}
# dnf(EXPRESSION): its DNF; in canon the expression in current names, in
# tok[1..ntok] its words
function dnf(s, n, i, u) {
	gsub(/\(/, " ( ", s); gsub(/\)/, " ) ", s)
	ntok = n = split(s, tok, " "); tok[n + 1] = ""; tk = 1
	canon = ""
	for (i = 1; i <= n; i++) {
		u = toupper(tok[i])
		canon = canon (i > 1 ? " " : "") (u == "OR" || u == "AND" || u == "WITH" ? u : normalize(tok[i]))
	}
	gsub(/\( /, "(", canon); gsub(/ \)/, ")", canon)
	while (canon ~ /^\(.*\)$/ && enclosed(canon))
		canon = substr(canon, 2, length(canon) - 2)
	return expr_or()
}
# enclosed("(...)"): whether its first parenthesis closes at its end
function enclosed(s, i, depth) {
	for (i = 1; i < length(s); i++)
		if ((depth += (substr(s, i, 1) == "(") - (substr(s, i, 1) == ")")) == 0)
			return 0
	return 1
}
# covered(D, P): whether paragraph P names each licence of a term of D
function covered(d, p, t, nt, l, nl, i, j, ok) {
	nt = split(d, t, "|")
	for (i = 1; i <= nt; i++) {
		nl = split(t[i], l, "+"); ok = 1
		for (j = 1; j <= nl; j++)
			if (!((p, l[j]) in names))
				ok = 0
		if (ok)
			return 1
	}
	return 0
}
# glob(PATTERN): the ERE of a DEP-5 pattern
function glob(g, r, c, i) {
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*")
			r = r ".*"
		else if (c == "?")
			r = r "."
		else {
			if (c == "\\")
				c = substr(g, ++i, 1)
			r = r (c ~ /[A-Za-z0-9_\/-]/ ? c : c == "\\" || c == "^" ? "\\" c : "[" c "]")
		}
	}
	return "^" r "$"
}
function add_paragraph(n, w, i, lic) {
	if ("Files" in field) {
		np++
		line[np] = fline["Files"]
		first[np] = field["Files"]
		sub(/[ \t\n].*/, "", first[np])
		n = split(field["Files"], w, " ")
		# "X*" and "X" (the most) by their X, the others as EREs
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^[^*?\\]*\*$/)
				prefix[substr(w[i], 1, length(w[i]) - 1)] = np
			else if (w[i] ~ /^[^*?\\]*$/)
				exact[w[i]] = np
			else {
				re[++nre] = glob(w[i])
				of[nre] = np
			}
		lic = field["License"]
		sub(/\n.*/, "", lic)
		license[np] = lic
		gsub(/,/, " ", lic)
		n = split(lic, w, " ")
		for (i = 1; i <= n; i++) {
			if (tolower(w[i]) == "with") {
				# "X with Y exception" has its own paragraph, as Y has
				need[normalize(w[i - 1]) " with " w[i + 1] " exception"] = np
				need[w[++i]] = np
				if (tolower(w[i + 1]) == "exception")
					i++
			} else if (tolower(w[i]) != "or" && tolower(w[i]) != "and") {
				names[np, normalize(w[i])] = 1
				need[normalize(w[i])] = np
			}
		}
	}
	if ("License" in field && field["License"] ~ /\n/) {
		lic = field["License"]
		sub(/\n.*/, "", lic)
		have[normalize(lic)] = 1
	}
	split("", field)
}
FILENAME == ARGV[1] && /^[ \t]*$/ { add_paragraph(); next }
FILENAME == ARGV[1] && /^[ \t]/ { field[name] = field[name] "\n" $0; next }
FILENAME == ARGV[1] {
	name = $0; sub(/:.*/, "", name)
	value = $0; sub(/^[^:]*:[ \t]*/, "", value)
	field[name] = value; fline[name] = FNR
	next
}
FNR == 1 { add_paragraph() }
{
	path = $1; d = dnf($3)
	p = path in exact ? exact[path] : 0
	for (i = length(path); i >= 0; i--)
		if ((x = substr(path, 1, i)) in prefix && prefix[x] > p)
			p = prefix[x]
	for (k = nre; k > 0 && of[k] > p; k--)
		if (path ~ re[k])
			p = of[k]
	ok = p && first[p] !~ /^debian\// && covered(d, p)
	files++; claims[p]++; how[$2]++
	split("", seen)
	for (i = 1; i <= ntok; i++)
		if (tok[i] !~ /^([()]|[Oo][Rr]|[Aa][Nn][Dd]|[Ww][Ii][Tt][Hh])$/ && !(normalize(tok[i]) in seen))
			count[seen[normalize(tok[i])] = normalize(tok[i])]++
	if (table != "")
		print path "\t" canon "\t" line[p] "\t" license[p] "\t" (ok ? "ok" : "wrong") > table
	if (!ok && ++wrong <= 10)
		example[wrong] = sprintf("%s: %s is %s, but the Files paragraph at line %s claims it as %s: add a paragraph for it, or its licence to that one", prog, path, canon, (p ? line[p] : "(none)"), (p ? license[p] : "nothing"))
}
END {
	if (FNR == NR)
		add_paragraph()
	if (!files) {
		printf "%s: no file to check: unpack the packages first\n", prog
		exit 2
	}
	printf "# %d files checked: %d with an SPDX line, %d with a permission text, %d without either (GPL-2.0-only)\n", files, how["tag"], how["text"], how["none"]
	for (c in count)
		printf "# %7d name %s\n", count[c], c | "sort -k2nr"
	close("sort -k2nr")
	for (i = 1; i <= wrong && i <= 10; i++)
		print example[i]
	if (wrong > 10)
		printf "%s: ... and %d more misattributed files\n", prog, wrong - 10
	for (p = 1; p <= np; p++)
		if (!claims[p] && first[p] !~ /^debian\//) {
			printf "%s: the Files paragraph at line %s (%s) claims no file: drop its stale patterns\n", prog, line[p], license[p]
			stale++
		}
	for (n in need)
		if (!(n in have)) {
			printf "%s: no License paragraph with the text of %s (Files paragraph at line %s): add one from the kernel's LICENSES/\n", prog, n, line[need[n]]
			missing++
		}
	if (wrong + stale + missing) {
		printf "%s: %d of %d files misattributed, %d stale Files paragraphs, %d licences without their text: fix %s\n", prog, wrong, files, stale, missing, copyright
		exit 1
	}
	printf "# misattributed 0, stale Files paragraphs 0 (of %d), licences without their text 0\n", np
}
