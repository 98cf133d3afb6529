package cmdguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/policy"
)

// Lint checks everything a check would load for path, and reports each
// problem as a [policy.Diagnostic]: the policy file (with [policy.Lint]:
// load errors, risky choices, OPA's strict checks of its Rego modules)
// and then the project's ignore files and inline ignore: patterns, read
// as [Open] reads them — a malformed pattern there makes every check
// fail, so it is an "error" here too.
//
// path is a policy file, or a directory: its .cmdguard.yaml, else the
// policy a check in that directory would use (the first one walking up,
// else the embedded default, whose ignore files are still read). The
// error is for a path that cannot be read at all.
func Lint(path string) ([]policy.Diagnostic, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	file := path
	if fi.IsDir() {
		found, ok, err := policy.Find(path)
		if err != nil {
			return nil, err
		}
		if !ok {
			// No policy file: a check uses the default policy, and still
			// reads the project's ignore files.
			_, err := Open(path)
			return ignoreDiagnostics(err, findRoot(mustAbs(path)), path), nil
		}
		file = found
		if rel, err := filepath.Rel(mustAbs(path), found); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.Join(path, rel) // as the caller wrote it
		}
	}
	diags, err := policy.Lint(file)
	if err != nil {
		return nil, err
	}
	for _, d := range diags {
		if d.Severity == "error" {
			return diags, nil // the ignore files are read only for a valid policy
		}
	}
	g, err := OpenPolicy(file)
	if err != nil {
		return append(diags, ignoreDiagnostics(err, filepath.Dir(file), file)...), nil
	}
	diags = append(diags, g.lintManaged(file)...)
	return append(diags, g.lintIgnoreFiles(file)...), nil
}

// lintIgnoreFiles reads every ignore file a check could read — one in any
// directory of the tree that is not below an ignored directory, as git
// reads them — and reports the first error of each. A check reads them
// lazily; lint walks the tree (up to the walk bound) to find them all.
func (g *Guard) lintIgnoreFiles(file string) []policy.Diagnostic {
	st, err := g.src.current()
	if err != nil {
		return ignoreDiagnostics(err, g.root, file)
	}
	names := st.Policy.IgnoreFiles()
	var diags []policy.Diagnostic
	for _, pt := range st.Policy.IgnorePatterns() {
		if w := ignore.PatternWarning(ignore.Pattern{Text: pt.Pattern, Source: pt.Source}); w != nil {
			diags = append(diags, warningDiagnostic(w, g.root, file))
		}
	}
	seen, entries := map[string]bool{}, 0
	filepath.WalkDir(g.root, func(p string, d fs.DirEntry, err error) error {
		if entries++; err != nil || entries > ignore.DefaultMaxEntries {
			return filepath.SkipAll
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		for _, n := range names {
			if data, err := os.ReadFile(filepath.Join(p, n)); err == nil {
				for _, w := range ignore.Warnings(data, filepath.Join(p, n)) {
					diags = append(diags, warningDiagnostic(w, g.root, file))
				}
			}
		}
		for _, n := range names {
			if _, err := os.Lstat(filepath.Join(p, n)); err != nil {
				continue
			}
			// Matching a name in the directory reads every ignore file on
			// the way to it; one below an ignored directory is not read.
			if _, err := st.Ign.MatchErr(filepath.Join(p, "cmdguard-lint-probe"), false); err != nil {
				if d := ignoreDiagnostics(err, g.root, file); len(d) > 0 && !seen[d[0].File] {
					seen[d[0].File] = true
					diags = append(diags, d...)
				}
			}
			break
		}
		return nil
	})
	return diags
}

// warningDiagnostic is ignoreDiagnostics for a pattern that matches
// nothing: a warning, not an error.
func warningDiagnostic(w *ignore.Error, root, file string) policy.Diagnostic {
	d := ignoreDiagnostics(w, root, file)[0]
	d.Severity = "warning"
	return d
}

func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// ignoreDiagnostics turns the error of building a Guard into diagnostics:
// an ignore file's malformed pattern at its file:line (column 1: a
// pattern is the whole line), anything else at the policy file's 1:1.
func ignoreDiagnostics(err error, root, file string) []policy.Diagnostic {
	if err == nil {
		return nil
	}
	var ie *ignore.Error
	if !errors.As(err, &ie) {
		return []policy.Diagnostic{{File: file, Line: 1, Col: 1, Severity: "error", Message: strings.TrimPrefix(err.Error(), "cmdguard: ")}}
	}
	d := policy.Diagnostic{File: ie.Source, Line: 1, Col: 1, Severity: "error", Message: ie.Err.Error()}
	if i := strings.LastIndexByte(ie.Source, ':'); i > 0 {
		if n, err := strconv.Atoi(ie.Source[i+1:]); err == nil {
			d.File, d.Line = ie.Source[:i], n
		}
	}
	switch {
	case d.File == mustAbs(file):
		d.File = file // an inline ignore: pattern of the policy, named as the caller did
	case filepath.IsAbs(d.File):
		if rel, err := filepath.Rel(root, d.File); err == nil && !strings.HasPrefix(rel, "..") {
			d.File = rel // ignore files are named relative to the root, as check names them
		}
	}
	if ie.Text != "" {
		d.Message = fmt.Sprintf("%s: %q", d.Message, ie.Text)
	}
	return []policy.Diagnostic{d}
}
