# SPDX-License-Identifier: GPL-2.0
# debian/bin/check-copyright.d/scan.awk, for awk with the files as
# arguments and -v tree=TREE: "PATH<TAB>HOW<TAB>EXPRESSION" for each
# file, PATH relative to TREE, HOW "tag", "text" or "none"
function untagged(t, lic) {
	t = " " tolower(t) " "
	gsub(/[^a-z0-9]+/, " ", t)
	if (t ~ / openib org bsd license /)
		lic = "Linux-OpenIB"
	else if (t ~ / redistribution and use in source and binary forms with or without modification are permitted /)
		lic = t ~ / neither the name | endorse or promote / ? "BSD-3-Clause" : "BSD-2-Clause"
	else if (t ~ / permission is hereby granted free of charge to any person obtaining /)
		lic = "MIT"
	else if (t ~ / permission to use copy modify and( or)? distribute this software for any purpose with or without fee is hereby granted /)
		lic = "ISC"
	else if (t ~ / this file has been put into the public domain | this file is in the public domain | offered for use in the public domain /)
		return "public-domain"
	else
		return ""
	if (t ~ / choice of one of two licenses | dual bsd gplv2 license | this file is dual licensed | alternatively this software may be distributed under the terms of the gnu general public license /)
		lic = (t ~ / any later version / ? "GPL-2.0-or-later" : "GPL-2.0-only") " OR " lic
	return lic
}
BEGIN {
	for (i = 1; i < ARGC; i++) {
		f = ARGV[i]
		n = 0; tag = ""; text = ""
		while (n < 40 && (r = getline line < f) > 0) {
			if (++n <= 5 && tag == "" && sub(/.*SPDX-License-Identifier:[ \t]*/, "", line))
				tag = line
			text = text " " line
		}
		if (r < 0) {
			print "cannot read " f > "/dev/stderr"
			exit 2
		}
		close(f)
		# the expression ends at the first character no expression has
		# (a comment end, a quote, a backslash)
		if (match(tag, /[^A-Za-z0-9.+() \t-]/))
			tag = substr(tag, 1, RSTART - 1)
		if (tag ~ /[A-Za-z0-9]/)
			how = "tag"
		else if ((tag = untagged(text)) != "")
			how = "text"
		else {
			how = "none"
			tag = "GPL-2.0-only"
		}
		print substr(f, length(tree) + 2) "\t" how "\t" tag
	}
}
