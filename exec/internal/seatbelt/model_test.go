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

// query is one file operation, or a network one: remote is then
// "ip HOST:PORT" or "unix PATH" (the peer of a connect, the address of a
// bind).
type query struct {
	op     string // "file-read-data", "file-write-create", "network-outbound", …
	path   string
	dir    bool
	remote string
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
	case "remote", "local": // the model keeps one address per query
		kind, addr, _ := strings.Cut(q.remote, " ")
		switch f.list[1].atom {
		case "ip":
			want := f.list[2].atom
			if kind != "ip" {
				return false
			}
			if host, port, _ := strings.Cut(want, ":"); host == "*" {
				return port == "*" || strings.HasSuffix(addr, ":"+port)
			} else if port == "*" {
				return strings.HasPrefix(addr, host+":")
			}
			return addr == want
		case "unix-socket":
			if kind != "unix" {
				return false
			}
			return filterMatches(t, f.list[2], query{path: addr})
		}
		t.Fatalf("remote filter %+v", f)
		return false
	case "path-literal":
		return q.path == f.list[1].atom
	case "path-regex":
		re, err := CompileRegex(f.list[1].atom)
		if err != nil {
			t.Fatalf("profile regex outside the subset: %v", err)
		}
		return re.Match(q.path)
	default:
		return false // global-name, sysctl-name, …: not a file or network filter
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
		{query{op: "file-read-data", path: proj + "/.env", dir: false}, false},
		{query{op: "file-read-data", path: proj + "/a/b/.ENV", dir: false}, false},
		{query{op: "file-read-data", path: "/System/Volumes/Data" + proj + "/.env", dir: false}, false},
		{query{op: "file-read-data", path: "/users/ME/proj/.env", dir: false}, false},
		{query{op: "file-read-metadata", path: proj + "/x/key.pem", dir: false}, false},
		{query{op: "file-write-data", path: proj + "/.env", dir: false}, false},
		{query{op: "file-write-create", path: proj + "/new/.env", dir: false}, false},
		{query{op: "file-write-unlink", path: proj + "/.env", dir: false}, false},
		{query{op: "file-clone", path: proj + "/.env", dir: false}, false},
		// A negation is decided the stricter way.
		{query{op: "file-read-data", path: proj + "/public.pem", dir: false}, false},
		// Anchored patterns hold where they are anchored only.
		{query{op: "file-read-data", path: proj + "/config/prod.yaml", dir: false}, false},
		{query{op: "file-read-data", path: proj + "/x/config/prod.yaml", dir: false}, true},
		{query{op: "file-read-data", path: proj + "/keys/a/id_rsa", dir: false}, false},
		{query{op: "file-read-data", path: proj + "/keys/a/b/id_rsa", dir: false}, true},
		// A directory-only pattern: the directory and all under it.
		{query{op: "file-read-data", path: proj + "/a/secrets", dir: true}, false},
		{query{op: "file-read-data", path: proj + "/a/secrets", dir: false}, true},
		{query{op: "file-read-data", path: proj + "/a/secrets/x/y", dir: false}, false},
		// A nested file's patterns; they follow a directory moved out.
		{query{op: "file-read-data", path: proj + "/deploy/prod.tfvars", dir: false}, false},
		{query{op: "file-read-data", path: proj + "/moved/prod.tfvars", dir: false}, false},
		{query{op: "file-read-data", path: tmp + "/moved/.env", dir: false}, false},
		{query{op: "file-read-data", path: "/Users/me/Library/Caches/go-build/x/.aws/credentials", dir: false}, false},
		// Hidden paths.
		{query{op: "file-read-data", path: "/Users/me/.ssh/id_ed25519", dir: false}, false},
		{query{op: "file-read-data", path: "/Users/me/.ssh", dir: true}, false},
		{query{op: "file-read-data", path: "/Users/me/.sshx", dir: false}, true},
		// What stays readable.
		{query{op: "file-read-data", path: proj + "/main.go", dir: false}, true},
		{query{op: "file-read-data", path: "/private/etc/hosts", dir: false}, true},
		{query{op: "file-read-data", path: "/usr/lib/libSystem.B.dylib", dir: false}, true},
		// Writes: the project, the temporary directory, the caches; nothing else.
		{query{op: "file-write-data", path: proj + "/main.go", dir: false}, true},
		{query{op: "file-write-create", path: tmp + "/x", dir: false}, true},
		{query{op: "file-write-create", path: "/Users/me/Library/Caches/go-build/ab/c", dir: false}, true},
		{query{op: "file-write-create", path: "/private/tmp/x", dir: false}, false},
		{query{op: "file-write-data", path: "/Users/me/.zshrc", dir: false}, false},
		{query{op: "file-write-create", path: "/Users/me/projx/a", dir: false}, false},
		{query{op: "file-write-data", path: "/dev/null", dir: false}, true},
		// Protected and absent paths.
		{query{op: "file-write-data", path: proj + "/.git/hooks/pre-commit", dir: false}, false},
		{query{op: "file-write-unlink", path: proj + "/.git/hooks", dir: true}, false},
		{query{op: "file-write-data", path: proj + "/.GIT/config", dir: false}, false},
		{query{op: "file-write-data", path: proj + "/.cmdguard.yaml", dir: false}, false},
		{query{op: "file-write-data", path: proj + "/.git/index", dir: false}, true},
		{query{op: "file-write-create", path: proj + "/.git/commondir", dir: false}, false},
		// Directories above hidden or protected paths cannot be renamed.
		{query{op: "file-write-unlink", path: proj + "/.git", dir: true}, false},
		{query{op: "file-write-unlink", path: proj + "/config", dir: true}, false},
		{query{op: "file-write-unlink", path: proj + "/keys/a", dir: true}, false},
		{query{op: "file-write-unlink", path: proj + "/keys/a.txt", dir: false}, true},
		{query{op: "file-write-unlink", path: proj + "/deploy", dir: true}, false},
		{query{op: "file-write-unlink", path: proj + "/src", dir: true}, true},
		{query{op: "file-write-unlink", path: proj + "/src/old.go", dir: false}, true},
		// No hard links at all.
		{query{op: "file-link", path: proj + "/a", dir: false}, false},
	} {
		if got, by := decide(t, prof, c.q); got != c.want {
			t.Errorf("%s %s (dir %v): allowed %v by %s, want %v", c.q.op, c.q.path, c.q.dir, got, by, c.want)
		}
	}
}

// TestProfileNetworkPromises checks the network rules in the model: off,
// the proxy only, or on; Unix sockets closed but for the run's own.
func TestProfileNetworkPromises(t *testing.T) {
	t.Parallel()
	const sock = "unix /private/tmp/cmdguard-501/run.sock"
	for _, c := range []struct {
		name    string
		network bool
		port    int
		want    map[string]bool // remote → allowed
	}{
		{"offline", false, 0, map[string]bool{"ip localhost:8877": false, "ip 93.184.216.34:443": false,
			sock: true, "unix /private/var/run/docker.sock": false, "unix /private/var/run/mDNSResponder": false}},
		{"proxy", false, 8877, map[string]bool{"ip localhost:8877": true, "ip localhost:22": false,
			"ip 93.184.216.34:443": false, sock: true, "unix /private/var/run/docker.sock": false}},
		{"network", true, 0, map[string]bool{"ip 93.184.216.34:443": true, "ip localhost:5432": true,
			sock: true, "unix /private/var/run/docker.sock": false, "unix /Users/me/.ssh/agent.sock": false,
			"unix /private/var/run/mDNSResponder": true}},
	} {
		p := goldenPolicy(t)
		p.Network, p.ProxyPort = c.network, c.port
		text, err := Profile(p)
		if err != nil {
			t.Fatal(err)
		}
		prof := readProfile(t, text)
		for remote, want := range c.want {
			if got, by := decide(t, prof, query{op: "network-outbound", remote: remote}); got != want {
				t.Errorf("%s: connect to %s allowed %v by %s, want %v", c.name, remote, got, by, want)
			}
		}
		if got, _ := decide(t, prof, query{op: "network-bind", remote: "unix " + "/Users/me/proj/x.sock"}); got {
			t.Errorf("%s: binding a Unix socket allowed", c.name)
		}
	}
}

// TestProfileWriteEverywhere checks, in the model, the profile of a
// sandbox that is not read-only: writes land anywhere, but hidden,
// protected and absent paths stay denied.
func TestProfileWriteEverywhere(t *testing.T) {
	t.Parallel()
	p := goldenPolicy(t)
	p.WriteEverywhere = true
	text, err := Profile(p)
	if err != nil {
		t.Fatal(err)
	}
	prof := readProfile(t, text)
	const proj = "/Users/me/proj"
	for _, c := range []struct {
		q    query
		want bool
	}{
		{query{op: "file-write-create", path: "/private/tmp/x"}, true},
		{query{op: "file-write-data", path: "/Users/me/.zshrc"}, true},
		{query{op: "file-write-data", path: proj + "/main.go"}, true},
		{query{op: "file-write-data", path: proj + "/.env"}, false},
		{query{op: "file-read-data", path: proj + "/.env"}, false},
		{query{op: "file-write-data", path: "/Users/me/.ssh/config"}, false},
		{query{op: "file-write-data", path: proj + "/.git/config"}, false},
		{query{op: "file-write-unlink", path: proj + "/.git", dir: true}, false},
		{query{op: "file-write-create", path: proj + "/.git/commondir"}, false},
		{query{op: "file-link", path: "/private/tmp/a"}, false},
	} {
		if got, by := decide(t, prof, c.q); got != c.want {
			t.Errorf("%s %s (dir %v): allowed %v by %s, want %v", c.q.op, c.q.path, c.q.dir, got, by, c.want)
		}
	}
}
