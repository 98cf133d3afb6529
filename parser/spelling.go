package parser

import (
	"path"
	"strings"
)

// CommandSpelling reads args, the words after a command's leading words
// lead (its program, maybe path-qualified, and subcommands: git push), as
// the program reads them, for the policy's deny and ask rules, which
// match every spelling of a command (deny wide, allow exact). It returns
// the options the words set, by canonical name (rm -R and --recursive
// are "recursive"), the operands in order, and unseen when an option reads
// more options from where the gate does not look (curl -K FILE): the
// words could set any option. A long option may be abbreviated, as
// getopt_long and git accept it. See [RuleSpelling] for a rule's words;
// both are safe for concurrent use, and their results are new slices the
// caller owns.
func CommandSpelling(lead, args []string) (opts, operands []string, unseen bool) {
	return spelling(lead, args, true)
}

// RuleSpelling reads a deny or ask rule's tokens after its leading words
// as [CommandSpelling] reads a command's, but as written: no abbreviation.
func RuleSpelling(lead, args []string) (opts, operands []string) {
	opts, operands, _ = spelling(lead, args, false)
	return opts, operands
}

// spelling reads args, the words after a command's leading words lead
// (its program, maybe path-qualified, and subcommands: git push), as the
// program reads them, for the policy's deny and ask rules, which match
// every spelling of a command (deny wide, allow exact). It returns the
// options the words set, by canonical name (rm -R and --recursive are
// "recursive"; git branch -D is "delete" and "force") or as written when
// the program's entry does not name them, and the operands in order.
//
// Clusters are split (rm -rf is -r -f), --opt=v is --opt and the operand
// v, -- ends the options, and a program whose options are whole words
// after one dash (find -delete, go -race) never clusters. When command is
// set the words are a command's and a long option may be abbreviated as
// getopt_long and git accept it: every option it could abbreviate is set
// (an ambiguous abbreviation is an error that runs nothing, so reading it
// wide costs nothing). Else they are a rule's, read as written.
//
// unseen reports an option that reads more options from where the gate
// does not look (curl -K FILE, wget -e COMMAND): the words could set any
// option.
//
// What a program's options are named comes from its entry's options
// (opt.as; see programs). It is safe for concurrent use; its results are
// new slices the caller owns.
func spelling(lead, args []string, command bool) (opts, operands []string, unseen bool) {
	var t *spellTable
	whole := false
	if len(lead) > 0 {
		if p := progs()[path.Base(lead[0])]; p != nil {
			p, _ = p.sub(lead, 1)
			t, whole = p.spelled, p.singleDash || p.goFlags
		}
	}
	more := true
	for _, a := range args {
		if !more || len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			if t != nil && t.plus != nil && len(a) > 1 && a[0] == '+' { // git push +ref: a forced update
				opts = append(opts, t.plus...)
				operands = append(operands, a[1:])
			}
			continue
		}
		if a == "--" {
			more = false
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case whole:
			if strings.HasPrefix(name, "--") {
				name = name[1:] // go: --o is -o
			}
			opts = t.add(opts, name)
		case strings.HasPrefix(a, "--") && command:
			opts = t.abbrev(append(opts, name), name)
		case strings.HasPrefix(a, "--"):
			opts = t.add(opts, name)
		default:
			hasVal = false // -n=5 is a cluster: n, =, 5 (over-reading is safe here)
			for _, c := range a[1:] {
				opts = t.add(opts, "-"+string(c))
			}
		}
		if hasVal {
			operands = append(operands, val)
		}
	}
	if t != nil && t.more != "" {
		for _, o := range opts {
			if o == t.more {
				unseen = true
			}
		}
	}
	return opts, operands, unseen
}

// spellTable is the rule names of an entry's options (opt.rule),
// compiled: what each spelling of an option is named.
type spellTable struct {
	names map[string][]string // "-R" → recursive; "-D" → delete, force
	plus  []string            // what an operand +X sets (git push +ref: force)
	more  string              // the name of an option that reads more options ("..."), or ""
}

// add appends the canonical names of the option spelled name, or name.
func (t *spellTable) add(opts []string, name string) []string {
	if t != nil {
		if canon, ok := t.names[name]; ok {
			return append(opts, canon...)
		}
	}
	return append(opts, name)
}

// abbrev appends the names of every long option name could abbreviate
// (itself included).
func (t *spellTable) abbrev(opts []string, name string) []string {
	if t == nil {
		return opts
	}
	for long, canon := range t.names {
		if strings.HasPrefix(long, "--") && strings.HasPrefix(long, name) {
			opts = append(opts, canon...)
		}
	}
	return opts
}
