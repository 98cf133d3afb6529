package parser

import (
	"slices"
	"strings"
)

// Terminal multiplexers start the commands they are given in new
// sessions, windows and panes: tmux (3.x) and GNU screen (4.x) are
// wrappers (their entries in programs), whose commands are checked like
// any other. tmux's commands that run a shell command are tmux's subs,
// each with its own options: those that take a value, those that set the
// new process's environment (role setsEnv) or directory (setsDir), and
// noCommand ones, which make the operand a tmux command (run-shell -C);
// its wrapSpec says whether several operands are run directly rather than
// by sh -c (direct).
// tmux's commands that run commands by other means (send-keys types into a
// shell, source-file and -f read tmux commands, bind-key and hooks store
// them) are guarded (tmuxRisk).

// entry is progs()[name], for the checks of guards, which programs names
// (set by init: a direct call would make programs depend on itself).
var entry func(name string) *program

func init() { entry = func(name string) *program { return progs()[name] } }

// tmuxCommand returns the entry of the tmux command name (a name, an
// alias, or an abbreviation, which tmux accepts when unambiguous; an
// ambiguous one is read as every command it abbreviates, the entry
// that runs a program first), or nil.
func tmuxCommand(tmux *program, name string) *program {
	if p := tmux.subs[name]; p != nil {
		return p
	}
	var found *program
	for n, p := range tmux.subs {
		if strings.HasPrefix(n, name) && (found == nil || found.wrap == nil && p.wrap != nil) {
			found = p
		}
	}
	return found
}

// tmuxSequence splits the words after tmux's own options into commands:
// a word ";" (written \; in the shell) or a word ending in ";" ends one.
func tmuxSequence(args []Word) [][]Word {
	out, _ := tmuxSequenceAt(args)
	return out
}

// tmuxSequenceAt is tmuxSequence, with the index in args of the first
// word of each command: a word "a;" ends its command without a word of
// its own for the ";", so the indexes cannot be counted from the lengths.
func tmuxSequenceAt(args []Word) (out [][]Word, at []int) {
	start := 0
	for i, a := range args {
		v := a.Value
		switch {
		case a.Dynamic:
		case v == ";":
			out, at = append(out, args[start:i]), append(at, start)
			start = i + 1
		case strings.HasSuffix(v, ";") && !strings.HasSuffix(v, `\;`):
			a.Value = v[:len(v)-1]
			out, at = append(out, append(slices.Clip(args[start:i]), a)), append(at, start)
			start = i + 1
		}
	}
	return append(out, args[start:]), append(at, start)
}

// tmuxGlobal returns the index of the first word after tmux's own
// options, -c's value (a shell command) if given, and the index of -f (a
// file of tmux commands) or -C (control mode: tmux commands read from
// standard input), or -1.
func tmuxGlobal(args []Word, o *roleTable) (int, *Word, int) {
	var script *Word
	config := -1
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic || len(v) < 2 || v[0] != '-' {
			return i, script, config
		}
		if v == "--" {
			return i + 1, script, config
		}
		for j := 1; j < len(v); j++ {
			if v[j] == 'C' {
				config = i
			}
			if !o.shortValue(v[j]) {
				continue
			}
			if v[j] == 'f' {
				config = i
			}
			val := Word{Value: v[j+1:], Pos: args[i].Pos, Dynamic: args[i].Dynamic}
			if j == len(v)-1 && i+1 < len(args) {
				i++
				val = args[i]
			}
			if v[j] == 'c' {
				script = &val
			}
			break
		}
	}
	return len(args), script, config
}

// tmuxFormat reports a word tmux expands as a format before it runs it
// (#{…}, #(…) runs a command, #H …): what runs is not the word as written.
func tmuxFormat(w Word) Word {
	if strings.IndexByte(w.Value, '#') >= 0 {
		w.Dynamic = true
	}
	return w
}

// tmuxWrapper handles tmux [opts] [-c STRING] [COMMAND [flags] [args]
// [; COMMAND …]].
func (s *state) tmuxWrapper(cmd *Command, o *roleTable, c *ctx, cwd cwdState) {
	tmux := progs()["tmux"]
	args := cmd.Argv[1:]
	i, script, _ := tmuxGlobal(args, o)
	var runs []tmuxRun
	if script != nil {
		runs = append(runs, tmuxRun{name: "tmux -c", words: []Word{tmuxFormat(*script)}, dir: cwd, shell: true})
	}
	for _, seq := range tmuxSequence(args[i:]) {
		if len(seq) == 0 {
			continue
		}
		if seq[0].Dynamic {
			s.find("parser.dynamic_command", seq[0].Pos, "tmux command "+seq[0].Value+" is not known before run time")
			continue
		}
		sub := tmuxCommand(tmux, seq[0].Value)
		if sub == nil || sub.wrap == nil {
			continue // a command that runs nothing, or one tmuxRisk guards
		}
		runs = s.tmuxRuns(cmd, "tmux "+seq[0].Value, *sub.wrap, sub.roles, seq[1:], cwd, runs)
	}
	s.add(*cmd)
	for _, r := range runs {
		if r.shell {
			s.shellString(r.words[0], r.name, c, r.dir)
		} else {
			s.inner(r.words, r.name, c, r.dir, false, nil)
		}
	}
}

// tmuxRun is a command tmux runs: one word run by sh -c (shell), or
// words run directly, by the tmux command name, in dir.
type tmuxRun struct {
	name  string
	words []Word
	dir   cwdState
	shell bool
}

// tmuxRuns reads one tmux command that runs a shell command (name, with
// its spec w and its args) and returns runs with what it runs added;
// -e VAR=VALUE is judged as an assignment reaching it.
func (s *state) tmuxRuns(cmd *Command, name string, w wrapSpec, o *roleTable, args []Word, cwd cwdState, runs []tmuxRun) []tmuxRun {
	dir := cwd
	noCmd := false
	i := 0
	for ; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic {
			s.find("parser.dynamic_command", args[i].Pos, name+" option or command "+v+" is not known before run time")
			return runs
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if v == "--" {
			i++
			break
		}
		for j := 1; j < len(v); j++ {
			if o.shortRole(v[j])&noCommand != 0 {
				noCmd = true
			}
			if !o.shortValue(v[j]) {
				continue
			}
			val := Word{Value: v[j+1:], Pos: args[i].Pos}
			if j == len(v)-1 && i+1 < len(args) {
				i++
				val = args[i]
			}
			switch {
			case o.shortRole(v[j])&setsEnv != 0:
				if k := strings.IndexByte(val.Value, '='); k > 0 && !val.Dynamic {
					s.envAssign(cmd, val)
				} else {
					s.find("env.unknown", val.Pos, name+" sets an environment variable that is not known before run time")
				}
			case o.shortRole(v[j])&setsDir != 0:
				dir = s.chdir(cwd, tmuxFormat(val))
			}
			break
		}
	}
	ops := args[min(i, len(args)):]
	if noCmd || len(ops) == 0 {
		return runs
	}
	if len(ops) == 1 || !w.direct {
		return append(runs, tmuxRun{name: name, words: []Word{tmuxFormat(ops[0])}, dir: dir, shell: true})
	}
	ws := make([]Word, len(ops))
	for k := range ops {
		ws[k] = tmuxFormat(ops[k])
	}
	return append(runs, tmuxRun{name: name, words: ws, dir: dir})
}

// tmuxRisk returns the index of the first word of a tmux command line
// (argv[i:], after "tmux") that makes tmux run commands the gate does not
// read: -f FILE (a file of tmux commands), -C (commands read from
// standard input), a tmux command whose entry
// in tmux's subs is guarded (send-keys types into a shell; source-file
// reads commands; bind-key, set-hook, … store them; set-option and
// set-environment change what later windows run), or run-shell -C and
// if-shell's tmux commands; -1 if none.
func tmuxRisk(argv []string, i int) int {
	tmux := entry("tmux")
	ws := make([]Word, 0, len(argv)-i)
	for _, a := range argv[i:] {
		ws = append(ws, Word{Value: a})
	}
	k, _, config := tmuxGlobal(ws, tmux.roles)
	if config >= 0 {
		return i + config
	}
	for j, a := range argv[i:] {
		if strings.Contains(a, "#(") {
			return i + j // a format that runs a shell command
		}
	}
	seqs, at := tmuxSequenceAt(ws[k:])
	for n, seq := range seqs {
		off := i + k + at[n] // the index in argv of the command's name
		if len(seq) > 0 {
			sub := tmuxCommand(tmux, seq[0].Value)
			switch {
			case sub == nil:
				return off // a command the table does not know
			case len(sub.guards) > 0 && !(off == 1 && tmux.subs[seq[0].Value] == sub):
				// (tmux NAME …: the guard of NAME's own entry reports it)
				return off
			case sub.wrap != nil && hasRoleOpt(seq[1:], sub.roles, noCommand):
				return off
			}
		}
	}
	return -1
}

// screenWrapper handles GNU screen [opts] [CMD [ARGS]]: CMD is run
// directly in a new window, -s PROG is the shell of new windows, -c FILE
// and -X COMMAND run screen commands (guarded: screenRisk), -Logfile FILE
// writes FILE, and -ls, -list and -wipe run nothing.
func (s *state) screenWrapper(cmd *Command, o *roleTable, c *ctx, cwd cwdState) {
	args := cmd.Argv[1:]
	var runs [][]Word
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case a.Dynamic || len(v) < 2 || v[0] != '-':
			break loop
		case v == "--":
			i++
			break loop
		case v == "-ls" || v == "-list" || v == "-wipe":
			s.add(*cmd)
			return
		case v == "-Logfile":
			if i+1 < len(args) {
				i++
				s.fileRef(cmd, args[i], RefOption, useWrite)
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			if !o.shortValue(v[j]) {
				continue
			}
			val := Word{Value: v[j+1:], Pos: a.Pos}
			if j == len(v)-1 && i+1 < len(args) {
				i++
				val = args[i]
			}
			switch v[j] {
			case 's': // the shell of new windows: a program screen runs
				runs = append(runs, []Word{val})
			case 'c':
				s.fileRef(cmd, val, RefOption, useRead)
			case 'X': // a screen command for a running session: screenRisk
				s.add(*cmd)
				return
			}
			break
		}
	}
	if i < len(args) {
		runs = append(runs, args[i:])
	}
	s.add(*cmd)
	for _, r := range runs {
		s.inner(r, "screen", c, cwd, false, nil)
	}
}

// screenRisk returns the index of screen's -c FILE (a file of screen
// commands) or -X (a screen command sent to a running session: stuff
// types into its shell, screen and exec run programs) in argv[i:], or -1.
func screenRisk(argv []string, i int) int {
	screen := entry("screen").roles
	for ; i < len(argv); i++ {
		a := argv[i]
		if len(a) < 2 || a[0] != '-' || a == "--" {
			return -1
		}
		if a == "-ls" || a == "-list" || a == "-wipe" || a == "-Logfile" {
			continue
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; {
			case c == 'c' || c == 'X':
				return i
			case screen.shortValue(c):
				if j == len(a)-1 {
					i++
				}
				j = len(a)
			}
		}
	}
	return -1
}

// The specs of tmux's commands that run a shell command (tmux 3.3: the
// options of each that take a value).
var (
	tmuxDirect = wrapSpec{kind: wrapExec, direct: true} // its operands are run directly, or one by sh -c
	tmuxShell  = wrapSpec{kind: wrapExec}               // its operand is run by sh -c

	tmuxNewSession  = []opt{val(setsDir, "-c"), val(setsEnv, "-e"), val(0, "-f -F -n -s -t -x -y")}
	tmuxNewWindow   = []opt{val(setsDir, "-c"), val(setsEnv, "-e"), val(0, "-F -n -t")}
	tmuxSplitWindow = []opt{val(setsDir, "-c"), val(setsEnv, "-e"), val(0, "-F -l -p -t")}
	tmuxRespawn     = []opt{val(setsDir, "-c"), val(setsEnv, "-e"), val(0, "-t")}
	tmuxPopup       = []opt{val(0, "-b -c -h -s -S -t -T -w -x -y"), val(setsDir, "-d"), val(setsEnv, "-e")}
	tmuxRunShell    = []opt{val(0, "-d -t"), does(noCommand, "-C")}
	tmuxTarget      = []opt{val(0, "-t")} // pipe-pane, if-shell
)

// The guards of tmux's commands that run commands by other means.
var (
	tmuxTypes    = []guardCheck{{why: "types keys into a pane, whose shell may run them"}}
	tmuxCommands = []guardCheck{{why: "runs or stores tmux commands the gate does not read, which may run programs"}}
	tmuxSettings = []guardCheck{{why: "changes options or the environment that decide what later windows run"}}
)
