package sandboxplan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/policy"
)

// maxHideFileSize bounds one ignore file read for HideFiles (the ignore
// package's own bound).
const maxHideFileSize = 16 << 20

// A HideFile is an ignore file whose patterns say what a sandboxed run
// hides, as exec.HideFile (the same fields, so that one converts to the
// other).
type HideFile struct {
	Dir     string   // the absolute directory its patterns are relative to
	Name    string   // what a report cites: "sub/.cursorignore", "policy"
	Set     string   // the ignore system: its file name; "" for the policy's patterns
	Content []byte   // the patterns
	Sources []string // for the policy's patterns, each line's "file:line"
}

// HideFiles returns the ignore files whose patterns say what a run in
// the project at root (a real path) hides under pol, for a sandbox that
// checks patterns at every access (macOS): every ignore file the policy
// names (and .cmdguardignore, in any letter case) in root and below,
// except inside .git and below a directory they ignore (git reads no
// ignore file there, and the directory is hidden whole); then the
// policy's hide: and ignore: patterns as a file of root, in the order
// the plan's matcher reads them; then the hide: patterns of each home
// directory (~/…), anchored there.
//
// Its error — an ignore file that cannot be read or is not a regular
// file, a malformed pattern, a project with more entries than the
// sandbox looks at — is a sandbox that cannot be set up.
func HideFiles(root string, pol *policy.Policy, homes []string) ([]HideFile, error) {
	inline, homePats := hidePatterns(pol.Sandbox().Hide, pol.IgnorePatterns())
	m, err := hideMatcher(root, pol, inline)
	if err != nil {
		return nil, fmt.Errorf("hide patterns: %w", err)
	}
	names := pol.IgnoreFiles()
	if len(names) == 0 {
		names = ignore.DefaultFiles()
	}
	sets := map[string]string{} // lower case → the set's name
	for _, n := range append([]string{ignore.AlwaysFile}, names...) {
		if _, ok := sets[strings.ToLower(n)]; !ok {
			sets[strings.ToLower(n)] = n
		}
	}
	var out []HideFile
	entries := 0
	var walk func(rel, abs string) error
	walk = func(rel, abs string) error {
		list, err := os.ReadDir(abs)
		if err != nil && rel == "" {
			return fmt.Errorf("read %s: %w", abs, err)
		}
		// A directory that cannot be listed: the command cannot list it
		// either (as for the paths hidden at the start).
		for _, e := range list {
			if entries++; entries > maxSandboxEntries {
				return fmt.Errorf("the project has more than %d entries to look at: %w", maxSandboxEntries, ignore.ErrTooManyEntries)
			}
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			if e.IsDir() {
				if name == ".git" {
					continue
				}
				res, err := m.MatchErr(r, true)
				if err != nil {
					return fmt.Errorf("hide patterns: %w", err)
				}
				if !res.Ignored {
					if err := walk(r, abs+"/"+name); err != nil {
						return err
					}
				}
				continue
			}
			set, ok := sets[strings.ToLower(name)]
			if !ok {
				continue
			}
			data, err := readHideFile(abs + "/" + name)
			if err != nil {
				return fmt.Errorf("hide patterns: ignore file %s: %w", r, err)
			}
			out = append(out, HideFile{Dir: abs, Name: r, Set: set, Content: data})
		}
		return nil
	}
	if err := walk("", root); err != nil {
		return nil, err
	}
	if len(inline) > 0 {
		f := HideFile{Dir: root, Name: "policy"}
		var b strings.Builder
		for _, p := range inline {
			b.WriteString(p.Text + "\n")
			f.Sources = append(f.Sources, p.Source)
		}
		f.Content = []byte(b.String())
		out = append(out, f)
	}
	if len(homePats) > 0 {
		for _, h := range homes {
			f := HideFile{Dir: h, Name: "policy ~/", Set: "~"}
			var b strings.Builder
			for _, p := range homePats {
				b.WriteString("/" + p.Text + "\n")
				f.Sources = append(f.Sources, p.Source)
			}
			f.Content = []byte(b.String())
			out = append(out, f)
		}
	}
	return out, nil
}

// hidePatterns splits the policy's hide: patterns into those of the
// project, followed by its ignore: patterns (so that a "!" in hide:
// never re-includes what the policy ignores), and those of the home
// directories (~/ taken off).
func hidePatterns(hide, ign []policy.Pattern) (inline, home []ignore.Pattern) {
	for _, p := range hide {
		if rest, ok := strings.CutPrefix(p.Pattern, "~/"); ok {
			home = append(home, ignore.Pattern{Text: rest, Source: p.Source})
			continue
		}
		inline = append(inline, ignore.Pattern{Text: p.Pattern, Source: p.Source})
	}
	for _, p := range ign {
		inline = append(inline, ignore.Pattern{Text: p.Pattern, Source: p.Source})
	}
	return inline, home
}

// hideMatcher is the matcher of what a run in root hides: the ignore
// files, then the inline patterns. It is loaded afresh for each run (a
// secret created since the Guard was built is hidden too).
func hideMatcher(root string, pol *policy.Policy, inline []ignore.Pattern) (*ignore.Matcher, error) {
	return ignore.Load(root, ignore.Options{Files: pol.IgnoreFiles(), Patterns: inline, MaxEntries: maxSandboxEntries,
		FoldCase: gitdir.FoldCase(root)})
}

// readHideFile reads an ignore file as the ignore package does: through
// a symbolic link, a regular file only (O_NONBLOCK: a FIFO planted
// under the name does not block), bounded.
func readHideFile(abs string) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxHideFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxHideFileSize {
		return nil, errors.New("larger than 16 MiB")
	}
	return data, nil
}
