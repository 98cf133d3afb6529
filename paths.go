package cmdguard

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/cmdguard/cmdguard/internal/refcheck"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// FileRequest asks whether an agent's own file tool (Claude Code's Read,
// Edit and Write, Cline's read_file, …) may touch a path: those tools
// reach .env as easily as cat does.
type FileRequest struct {
	// Path is the file the tool names: absolute, or relative to Cwd.
	Path string
	// Cwd is the directory a relative Path is taken from. Empty means the
	// Guard's root.
	Cwd string
	// Write is set for a tool that creates, replaces or edits the file.
	Write bool
	// Recursive is set for a tool that reads a directory's files (a
	// search tool): a directory holding ignored files is then
	// ignore.contains_ignored, as for grep -r.
	Recursive bool
}

// CheckFile decides on a file tool's access to req.Path with the same file
// checks a command's file references get — ignore.denied for an ignored
// path (written or with symlinks resolved), path.protected for a write to
// .git/hooks, .git/config, the policy or an ignore file, path.outside_root
// for a path that leaves the project root — each rated by the policy's
// rules:. Prefix rules and Rego are not consulted: a read or write of an
// ordinary file in the project is an Allow with no reason. As Check, it
// never returns Allow with an error; the Decision's one Command is the
// equivalent shell command (cat -- PATH; tee -- PATH for a write; rg --
// PATH for a recursive read).
func (g *Guard) CheckFile(ctx context.Context, req FileRequest) (d Decision, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cmdguard: panic while checking a file: %v\n%s", r, debug.Stack())
			d = failed("gate.panic", fmt.Sprintf("the gate panicked: %v", r))
		}
	}()
	if g == nil || g.src == nil {
		return failed("gate.error", "no guard"), errors.New("cmdguard: nil or zero Guard")
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), err
	}
	st, err := g.src.current()
	if err != nil {
		return failed("policy.invalid", err.Error()), err
	}
	if req.Path == "" || strings.ContainsRune(req.Path, 0) {
		return failed("gate.error", "no usable file path"), fmt.Errorf("cmdguard: bad file path %q", req.Path)
	}
	prog := "cat"
	switch {
	case req.Write:
		prog = "tee"
	case req.Recursive:
		prog = "rg" // a reader that reads directories recursively
	}
	cwd := g.cwd(req.Cwd)
	argv := []string{prog, "--", req.Path}
	c := &parser.Command{Args: argv, MatchArgv: argv, Cwd: cwd, Pos: parser.Pos{Line: 1, Col: 1}}
	// The path is not cleaned: the kernel follows a symlink before the ..
	// after it (lk/../db.txt with lk -> secrets/sub is secrets/db.txt), and
	// so does the resolution, as for a command's file references.
	fr := &parser.FileRef{Path: req.Path, Pos: parser.Pos{Line: 1, Col: len(prog) + 5}, Kind: parser.RefArg, Write: req.Write, Recursive: req.Recursive && !req.Write}
	var findings []policy.Finding
	rc := refcheck.Checker{Root: g.root, Ign: st.Ign, Protected: st.Protected}
	files := rc.FileRef(c, fr, new(refcheck.Globs), []policy.File{}, &findings)
	d.Commands = []Command{{Argv: argv, MatchArgv: argv, Dynamic: make([]bool, len(argv)), Pos: pos(c.Pos),
		Wrappers: []string{}, Redirects: []policy.Redirect{}, Cwd: cwd, Files: files}}
	d.Verdict = Allow
	for _, f := range findings {
		v, src := st.Policy.RuleVerdict(f.Rule)
		if src == "builtin" && f.Source != "" {
			src = f.Source
		}
		d.Reasons = append(d.Reasons, Reason{Verdict: v, Rule: f.Rule, Message: f.Message, Pos: f.Pos, Source: src})
		if v < d.Verdict {
			d.Verdict = v
		}
	}
	if d.Reasons == nil {
		d.Reasons = []Reason{}
	}
	// Strictest first, as Check orders them.
	for i := 1; i < len(d.Reasons); i++ {
		for j := i; j > 0 && d.Reasons[j].Verdict < d.Reasons[j-1].Verdict; j-- {
			d.Reasons[j], d.Reasons[j-1] = d.Reasons[j-1], d.Reasons[j]
		}
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), err
	}
	return d, nil
}
