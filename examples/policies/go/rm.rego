# rm that is both recursive and forced, whatever the spelling: -rf, -fr,
# -Rf, -r -f, -rfv, --recursive --force, -r --force, … Prefix rules can
# only name one order (deny: [rm -rf]); this names them all.
package cmdguard

deny contains {"msg": "rm -r -f deletes whole trees without asking", "rule": "rm-recursive-force", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "rm"
	rm_flag(c, "r")
	rm_flag(c, "f")
}

# rm with a dynamic word could be given -rf at run time.
ask contains {"msg": sprintf("rm with a dynamic argument (%s) could delete anything", [c.argv[j]]), "rule": "rm-dynamic", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "rm"
	some j, d in c.dynamic
	d
}

rm_long := {"r": {"--recursive"}, "f": {"--force"}}

# rm_options are the option words of c, up to "--".
rm_options(c) := [a |
	some j, a in c.argv
	j > 0
	startswith(a, "-")
	not rm_after_dashdash(c, j)
]

rm_after_dashdash(c, j) if {
	some k, x in c.argv
	x == "--"
	k > 0
	k <= j
}

# A long option, or any unambiguous abbreviation GNU rm accepts (--rec).
rm_flag(c, letter) if {
	some a in rm_options(c)
	count(a) > 2
	some long in rm_long[letter]
	startswith(long, a)
}

# A cluster of short options: -rf, -fr, -Rf, -rfv. -R is -r.
rm_flag(c, letter) if {
	some a in rm_options(c)
	regex.match(`^-[A-Za-z]+$`, a)
	contains(lower(a), letter)
}
