package parser

import "strings"

// optTable is one program's parsed options entry.
type optTable struct {
	short [128]byte       // 0 unknown, 'f' flag, '=' value, '?' optional attached value
	long  map[string]byte // the same, and '2' for two values; a Go flag's name
	num   bool            // -NUM is known
	// goFlags: every option is a long name after one dash or two (Go's
	// flag package), never a cluster.
	goFlags bool
	// negatable: --no-NAME is known for every flag NAME (git).
	negatable bool
}

// parseOptions parses the options of a programs entry (prog names it in
// a panic).
func parseOptions(prog, spec string, goFlags, negatable bool) *optTable {
	t := &optTable{long: map[string]byte{}, goFlags: goFlags, negatable: negatable}
	for _, tok := range strings.Fields(spec) {
		kind := byte('f')
		if c := tok[len(tok)-1]; c == '=' || c == '?' || c == '2' && strings.HasSuffix(tok, "=2") {
			kind = c
			tok = strings.TrimSuffix(tok[:len(tok)-1], "=")
		}
		switch {
		case tok == "-NUM":
			t.num = true
			continue
		case goFlags && len(tok) > 1 && tok[0] == '-' && tok[1] != '-':
			tok = "--" + tok[1:]
		case strings.HasPrefix(tok, "--") && !goFlags:
		case len(tok) == 2 && tok[0] == '-' && !goFlags:
			if k := t.short[tok[1]]; k != 0 && k != kind {
				panic("parser: option " + tok + " of " + prog + " listed twice, with and without a value")
			}
			t.short[tok[1]] = kind
			continue
		default:
			panic("parser: bad options token " + tok + " for " + prog)
		}
		if k := t.long[tok[2:]]; k != 0 && k != kind {
			panic("parser: option " + tok + " of " + prog + " listed twice, with and without a value")
		}
		t.long[tok[2:]] = kind
	}
	return t
}

// kind returns how the long option name (maybe abbreviated, as
// getopt_long and git accept) is read, or 0 when the table does not know
// it.
func (t *optTable) kind(name string) byte {
	if k, ok := t.long[name]; ok {
		return k
	}
	var found byte
	for l, k := range t.long {
		if strings.HasPrefix(l, name) {
			if found != 0 && found != k {
				return '=' // ambiguous: getopt refuses it; read as taking a value, the safe way
			}
			found = k
		}
	}
	if found == 0 && t.negatable {
		if n, ok := strings.CutPrefix(name, "no-"); ok && n != "" && t.kind(n) != 0 {
			return 'f' // git: --no-NAME, which takes no value
		}
	}
	return found
}

// unknownOptions reports the options of args that p's options do not
// list (nothing for a program without options). A program with
// subcommands but no options of its own (go) is read from the
// subcommand's entry, args[0] (and its own subcommand's: go mod
// download).
// Dynamic words are not reported here: they are unknown file references
// and policy.dangerous_option already.
func unknownOptions(cmd *Command, p *program, args []Word) {
	if p == nil {
		return
	}
	for p.opts == nil && p.subs != nil {
		if len(args) == 0 || args[0].Dynamic || p.subs[args[0].Value] == nil {
			return
		}
		p, args = p.subs[args[0].Value], args[1:]
	}
	t := p.opts
	if t == nil {
		return
	}
	if t.goFlags {
		unknownGoOptions(cmd, t, args)
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			continue // an operand: GNU programs and git take options after operands too
		}
		if v == "--" {
			return
		}
		if v[1] == '-' {
			name, _, hasVal := strings.Cut(v[2:], "=")
			switch k := t.kind(name); {
			case k == 0 || k == 'f' && hasVal:
				cmd.UnknownOptions = append(cmd.UnknownOptions, a)
			case k == '=' && !hasVal:
				i++
			case k == '2':
				if !hasVal {
					i++
				}
				i++
			}
			continue
		}
		if t.num && isDigits(v[1:]) {
			continue
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			k := byte(0)
			if c < 128 {
				k = t.short[c]
			}
			if k == 0 {
				cmd.UnknownOptions = append(cmd.UnknownOptions, a)
				break
			}
			if k == '=' || k == '?' {
				if k == '=' && j == len(v)-1 {
					i++ // the value is the next word
				}
				break
			}
		}
	}
}
