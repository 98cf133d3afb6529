package seatbelt

import (
	"fmt"
	"strings"
	"testing"
)

// This file is a model of how Seatbelt decides a file operation, as the
// profile assumes it works (the package documentation lists what a Mac
// must confirm): rules are read in order, a rule applies when its
// operation matches (an operation ending in '*' covers those it
// prefixes, "default" every one) and one of its filters matches (or it
// has none), and the last rule that applies decides. The model reads
// the profiles Profile writes and checks the promises against them.

type sexp struct {
	atom   string // a symbol, or a string's value
	str    bool   // atom came from a string literal
	list   []sexp
	isList bool
}

func readProfile(t *testing.T, src string) []sexp {
	t.Helper()
	var out []sexp
	i := 0
	var read func() sexp
	skip := func() {
		for i < len(src) {
			switch {
			case src[i] == ';':
				for i < len(src) && src[i] != '\n' {
					i++
				}
			case src[i] == ' ' || src[i] == '\n' || src[i] == '\t':
				i++
			default:
				return
			}
		}
	}
	read = func() sexp {
		skip()
		if i >= len(src) {
			t.Fatalf("profile ends early")
		}
		switch {
		case src[i] == '(':
			i++
			l := sexp{isList: true}
			for {
				skip()
				if i >= len(src) {
					t.Fatalf("unclosed '('")
				}
				if src[i] == ')' {
					i++
					return l
				}
				l.list = append(l.list, read())
			}
		case strings.HasPrefix(src[i:], `#"`):
			end := strings.IndexByte(src[i+2:], '"')
			if end < 0 {
				t.Fatalf("unclosed #\"")
			}
			s := src[i+2 : i+2+end]
			i += end + 3
			return sexp{atom: s, str: true}
		case src[i] == '"':
			var b strings.Builder
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
				b.WriteByte(src[i])
			}
			i++
			return sexp{atom: b.String(), str: true}
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \n\t()", rune(src[j])) {
				j++
			}
			a := src[i:j]
			i = j
			return sexp{atom: a}
		}
	}
	for skip(); i < len(src); skip() {
		out = append(out, read())
	}
	return out
}

// query is one file operation.
type query struct {
	op   string // "file-read-data", "file-write-create", "file-write-unlink", …
	path string
	dir  bool
}

func opMatches(rule, op string) bool {
	if rule == "default" {
		return true
	}
	if p, ok := strings.CutSuffix(rule, "*"); ok {
		return strings.HasPrefix(op, p)
	}
	return rule == op
}

func filterMatches(t *testing.T, f sexp, q query) bool {
	t.Helper()
	if !f.isList || len(f.list) == 0 {
		t.Fatalf("filter %+v", f)
	}
	switch head := f.list[0].atom; head {
	case "literal":
		return q.path == f.list[1].atom
	case "subpath":
		s := f.list[1].atom
		return q.path == s || strings.HasPrefix(q.path, s+"/")
	case "regex":
		re, err := CompileRegex(f.list[1].atom)
		if err != nil {
			t.Fatalf("profile regex outside the subset: %v", err)
		}
		return re.Match(q.path)
	case "vnode-type":
		return f.list[1].atom == "DIRECTORY" && q.dir
	case "require-all":
		for _, g := range f.list[1:] {
			if !filterMatches(t, g, q) {
				return false
			}
		}
		return true
	default:
		return false // global-name, sysctl-name, remote …: not a file filter
	}
}

// decide returns whether the profile allows q, and the rule that decided.
func decide(t *testing.T, prof []sexp, q query) (bool, string) {
	t.Helper()
	allowed, by := false, "(none)"
	for _, r := range prof {
		if !r.isList || (r.list[0].atom != "allow" && r.list[0].atom != "deny") {
			continue
		}
		var ops []string
		var filters []sexp
		for _, x := range r.list[1:] {
			if x.isList {
				filters = append(filters, x)
			} else {
				ops = append(ops, x.atom)
			}
		}
		applies := false
		for _, o := range ops {
			if opMatches(o, q.op) {
				applies = true
			}
		}
		if !applies {
			continue
		}
		if len(filters) > 0 {
			any := false
			for _, f := range filters {
				if filterMatches(t, f, q) {
					any = true
					break
				}
			}
			if !any {
				continue
			}
		}
		allowed = r.list[0].atom == "allow"
		by = fmt.Sprintf("(%s %s …)", r.list[0].atom, strings.Join(ops, " "))
	}
	return allowed, by
}

// TestProfilePromises checks each promise of the golden policy's profile
// in the model.
func TestProfilePromises(t *testing.T) {
	t.Parallel()
	text, err := Profile(goldenPolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	prof := readProfile(t, text)
	const (
		proj = "/Users/me/proj"
		tmp  = "/private/var/folders/x1/abc/T/cmdguard-run-1"
	)
	for _, c := range []struct {
		q    query
		want bool
	}{
		// Hidden by pattern, at any depth, in either case, by either spelling.
		{query{"file-read-data", proj + "/.env", false}, false},
		{query{"file-read-data", proj + "/a/b/.ENV", false}, false},
		{query{"file-read-data", "/System/Volumes/Data" + proj + "/.env", false}, false},
		{query{"file-read-data", "/users/ME/proj/.env", false}, false},
		{query{"file-read-metadata", proj + "/x/key.pem", false}, false},
		{query{"file-write-data", proj + "/.env", false}, false},
		{query{"file-write-create", proj + "/new/.env", false}, false},
		{query{"file-write-unlink", proj + "/.env", false}, false},
		{query{"file-clone", proj + "/.env", false}, false},
		// A negation is decided the stricter way.
		{query{"file-read-data", proj + "/public.pem", false}, false},
		// Anchored patterns hold where they are anchored only.
		{query{"file-read-data", proj + "/config/prod.yaml", false}, false},
		{query{"file-read-data", proj + "/x/config/prod.yaml", false}, true},
		{query{"file-read-data", proj + "/keys/a/id_rsa", false}, false},
		{query{"file-read-data", proj + "/keys/a/b/id_rsa", false}, true},
		// A directory-only pattern: the directory and all under it.
		{query{"file-read-data", proj + "/a/secrets", true}, false},
		{query{"file-read-data", proj + "/a/secrets", false}, true},
		{query{"file-read-data", proj + "/a/secrets/x/y", false}, false},
		// A nested file's patterns; they follow a directory moved out.
		{query{"file-read-data", proj + "/deploy/prod.tfvars", false}, false},
		{query{"file-read-data", proj + "/moved/prod.tfvars", false}, false},
		{query{"file-read-data", tmp + "/moved/.env", false}, false},
		{query{"file-read-data", "/Users/me/Library/Caches/go-build/x/.aws/credentials", false}, false},
		// Hidden paths.
		{query{"file-read-data", "/Users/me/.ssh/id_ed25519", false}, false},
		{query{"file-read-data", "/Users/me/.ssh", true}, false},
		{query{"file-read-data", "/Users/me/.sshx", false}, true},
		// What stays readable.
		{query{"file-read-data", proj + "/main.go", false}, true},
		{query{"file-read-data", "/private/etc/hosts", false}, true},
		{query{"file-read-data", "/usr/lib/libSystem.B.dylib", false}, true},
		// Writes: the project, the temporary directory, the caches; nothing else.
		{query{"file-write-data", proj + "/main.go", false}, true},
		{query{"file-write-create", tmp + "/x", false}, true},
		{query{"file-write-create", "/Users/me/Library/Caches/go-build/ab/c", false}, true},
		{query{"file-write-create", "/private/tmp/x", false}, false},
		{query{"file-write-data", "/Users/me/.zshrc", false}, false},
		{query{"file-write-create", "/Users/me/projx/a", false}, false},
		{query{"file-write-data", "/dev/null", false}, true},
		// Protected and absent paths.
		{query{"file-write-data", proj + "/.git/hooks/pre-commit", false}, false},
		{query{"file-write-unlink", proj + "/.git/hooks", true}, false},
		{query{"file-write-data", proj + "/.GIT/config", false}, false},
		{query{"file-write-data", proj + "/.cmdguard.yaml", false}, false},
		{query{"file-write-data", proj + "/.git/index", false}, true},
		{query{"file-write-create", proj + "/.git/commondir", false}, false},
		// Directories above hidden or protected paths cannot be renamed.
		{query{"file-write-unlink", proj + "/.git", true}, false},
		{query{"file-write-unlink", proj + "/config", true}, false},
		{query{"file-write-unlink", proj + "/keys/a", true}, false},
		{query{"file-write-unlink", proj + "/keys/a.txt", false}, true},
		{query{"file-write-unlink", proj + "/deploy", true}, false},
		{query{"file-write-unlink", proj + "/src", true}, true},
		{query{"file-write-unlink", proj + "/src/old.go", false}, true},
		// No hard links at all.
		{query{"file-link", proj + "/a", false}, false},
	} {
		if got, by := decide(t, prof, c.q); got != c.want {
			t.Errorf("%s %s (dir %v): allowed %v by %s, want %v", c.q.op, c.q.path, c.q.dir, got, by, c.want)
		}
	}
}
