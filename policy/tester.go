package policy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
	"go.yaml.in/yaml/v3"
)

// TestResult is the outcome of one Rego test rule (test_*).
type TestResult struct {
	Package  string        `json:"package"`
	Name     string        `json:"name"`
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Col      int           `json:"col"`
	Status   string        `json:"status"` // pass | fail | error | skip
	Error    string        `json:"error,omitempty"`
	Output   string        `json:"output,omitempty"` // print() output of a failed test
	Duration time.Duration `json:"duration"`
}

// Pass reports whether the test passed (skipped tests do not).
func (r TestResult) Pass() bool { return r.Status == "pass" }

// RunTests runs the Rego unit tests (rules named test_*, usually in
// _test.rego files) of every .rego file under path (a file or a
// directory, walked recursively, hidden directories skipped), with the
// same restricted builtins as a policy and OPA's tester, as "opa test"
// does. Parse and compile errors are an [Errors]; failing tests are not
// an error. Results are sorted by file and line.
func RunTests(ctx context.Context, path string) ([]TestResult, error) {
	files, err := regoFiles(path)
	if err != nil {
		return nil, fmt.Errorf("policy test: %w", err)
	}
	if len(files) == 0 {
		return nil, nil
	}
	caps := capabilities()
	mods, errs := parseModules(files, caps)
	if len(errs) > 0 {
		return nil, fmt.Errorf("policy test: %w", explainRefused(errs))
	}
	c := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(true)
	ch, err := tester.NewRunner().
		SetCompiler(c).
		CapturePrintOutput(true).
		RaiseBuiltinErrors(true).
		Run(ctx, mods)
	if err != nil {
		return nil, fmt.Errorf("policy test: %w", explainRefused(astErrors(files[0], err)))
	}
	var out []TestResult
	for r := range ch {
		tr := TestResult{Package: strings.TrimPrefix(r.Package, "data."), Name: r.Name, Duration: r.Duration, Status: "pass"}
		if r.Location != nil {
			tr.File, tr.Line, tr.Col = r.Location.File, r.Location.Row, r.Location.Col
		}
		switch {
		case r.Skip:
			tr.Status = "skip"
		case r.Error != nil:
			tr.Status, tr.Error = "error", r.Error.Error()
		case r.Fail:
			tr.Status = "fail"
		}
		if !tr.Pass() {
			tr.Output = string(r.Output)
		}
		out = append(out, tr)
	}
	slices.SortFunc(out, func(a, b TestResult) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return a.Line - b.Line
	})
	return out, nil
}

// regoFiles lists the .rego files of path, sorted.
func regoFiles(path string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != path && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".rego") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// Diagnostic is one problem or warning found by [Lint].
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // error | warning
	Message  string `json:"message"`
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", d.File, d.Line, d.Col, d.Severity, d.Message)
}

// riskyPrograms are programs whose allow: entry deserves a warning.
var riskyPrograms = map[string]string{
	"*": "allows every command", "curl": "reaches the network", "wget": "reaches the network",
	"ssh": "reaches the network", "scp": "reaches the network", "rsync": "reaches the network",
	"nc": "reaches the network", "ncat": "reaches the network", "telnet": "reaches the network",
	"ftp": "reaches the network", "sftp": "reaches the network",
	"bash": "runs arbitrary code", "sh": "runs arbitrary code", "zsh": "runs arbitrary code",
	"python": "runs arbitrary code", "python3": "runs arbitrary code", "node": "runs arbitrary code",
	"perl": "runs arbitrary code", "ruby": "runs arbitrary code", projectToken: "runs arbitrary code (the project's own scripts)",
	"sudo": "runs commands as root", "doas": "runs commands as root", "su": "runs commands as root",
	"rm": "deletes files", "dd": "writes devices",
	"git push": "reaches the network", "git fetch": "reaches the network", "git pull": "reaches the network",
	"git clone": "reaches the network", "npm install": "reaches the network and runs install scripts",
	"pip install": "reaches the network and runs install scripts",
}

// Lint checks the policy file at path (or path/.cmdguard.yaml when path
// is a directory): every load error as an "error" diagnostic, then
// warnings for risky choices (allowing network or code-running
// programs, default: allow, parser rules re-rated to allow) and OPA's
// strict-mode checks of the Rego modules. A warning about a line of the
// policy file whose comment holds "lint:ok" (- curl -I  # lint:ok: HEAD
// only) is left out: the choice was made knowingly. Errors cannot be
// silenced. The error is for an unreadable file only. The ignore files
// are not read here (this package does not know them): cmdguard.Lint
// checks them too.
func Lint(path string) ([]Diagnostic, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, FileName)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // names the path already: "open x.yaml: …"
	}
	var diags []Diagnostic
	p, err := Parse(path, data, filepath.Dir(path))
	if err != nil {
		var errs Errors
		if !errors.As(err, &errs) {
			errs = Errors{{File: path, Line: 1, Col: 1, Msg: err.Error()}}
		}
		for _, e := range errs {
			diags = append(diags, Diagnostic{e.File, e.Line, e.Col, "error", e.Msg})
		}
		return diags, nil
	}
	warn := func(file string, line, col int, format string, args ...any) {
		diags = append(diags, Diagnostic{file, line, col, "warning", fmt.Sprintf(format, args...)})
	}
	if p.def == Allow && p.defNode != nil {
		warn(path, p.defNode.Line, p.defNode.Column, "default: allow lets every command no rule names run")
	}
	for _, pr := range p.prefixes {
		if pr.Verdict != Allow {
			continue
		}
		for n := min(len(pr.Tokens), 2); n > 0; n-- {
			if why, ok := riskyPrograms[strings.Join(pr.Tokens[:n], " ")]; ok {
				if p.strict && strings.HasPrefix(why, "runs arbitrary code") {
					break // strict: the project's code runs only under the sandbox
				}
				if p.strict && why == "reaches the network and runs install scripts" {
					break // strict: an install runs only under the sandbox with a host list (issue 27)
				}
				warn(path, pr.line, pr.col, "allow: %q %s", pr.String(), why)
				break
			}
		}
	}
	for _, t := range p.ties {
		warn(path, t.pr.line, t.pr.col, "prefix %q is in both %s (%s) and %s: the stricter, %s, wins",
			t.pr.String(), t.first.Verdict, t.first.Source, t.pr.Verdict, min(t.first.Verdict, t.pr.Verdict))
	}
	for id, r := range p.ratings {
		if r.Verdict == Allow && strings.HasPrefix(id, "parser.") {
			warn(path, r.line, r.col, "rules: %s: allow lets a construct the gate cannot follow run", id)
		}
	}
	for _, sk := range p.sandbox.Sockets {
		line := 1
		if i := strings.LastIndexByte(sk.Source, ':'); i >= 0 {
			if n, err := strconv.Atoi(sk.Source[i+1:]); err == nil {
				line = n
			}
		}
		warn(path, line, 1, "sandbox.sockets: %q: every sandboxed command may connect to it, and what its server does for a client (an ssh agent signs with the person's keys) happens outside the sandbox", sk.Pattern)
		for _, h := range p.sandbox.Hide {
			if strings.HasPrefix(h.Pattern, "~/") && (sk.Pattern == h.Pattern || strings.HasPrefix(sk.Pattern, strings.TrimSuffix(h.Pattern, "/")+"/")) {
				warn(path, line, 1, "sandbox.sockets: %q is below sandbox.hide %q: it stays out of reach", sk.Pattern, h.Pattern)
			}
		}
	}
	if p.rego != nil {
		caps := capabilities()
		mods, _ := parseModules(p.rego.files, caps)
		c := ast.NewCompiler().WithCapabilities(caps).WithStrict(true)
		if c.Compile(mods); c.Failed() {
			for _, e := range astErrors(p.rego.files[0], c.Errors) {
				warn(e.File, e.Line, e.Col, "%s", e.Msg)
			}
		}
	}
	diags = dropAcknowledged(diags, path, data)
	slices.SortStableFunc(diags, func(a, b Diagnostic) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return a.Line - b.Line
	})
	return diags, nil
}

// dropAcknowledged removes the warnings about policy lines whose YAML
// comment holds "lint:ok".
func dropAcknowledged(diags []Diagnostic, path string, data []byte) []Diagnostic {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return diags
	}
	ok := map[int]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if strings.Contains(n.LineComment, "lint:ok") {
			ok[n.Line] = true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	if len(ok) == 0 {
		return diags
	}
	return slices.DeleteFunc(diags, func(d Diagnostic) bool {
		return d.Severity == "warning" && d.File == path && ok[d.Line]
	})
}
