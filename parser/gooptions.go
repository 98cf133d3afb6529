package parser

import "strings"

// goBuildOpts are the build flags go build, test, vet and list share
// (go help build), in the syntax of programs' options (go's entry has
// goFlags), with one dash:
// Go flags are -name or --name, -name=value or -name value, never
// clustered.
var goBuildOpts = []opt{
	val(0, "-p -covermode -coverpkg -buildmode -compiler -installsuffix -mod -overlay -pgo -tags -debug-actiongraph -debug-runtime-trace -debug-trace"),
	val(0, "-C -asmflags -gccgoflags -gcflags -ldflags -modfile -pkgdir -toolexec").guard(goBuildWhy),
	flags("-a -n -race -msan -asan -cover -v -work -x -linkshared -modcacherw -trimpath"),
	optional(0, "-buildvcs"),
}

// goBuildWhy: go build's flags that run a program (-toolexec, -exec,
// -vettool), reach the compiler or linker (-ldflags=-extld=x runs x), or
// build in another directory. -o is not one: its target is a written
// file reference, checked like any other (go build -o bin/app).
const goBuildWhy = "runs a program, passes flags to the compiler or linker, or writes where you choose"

// unknownGoOptions reports the flags of a go command (args follow its
// subcommand) that its subcommand's options (t) do not list. Under the
// default policy another flag before the packages is
// policy.unknown_option (ask). Flags after go test's packages go to the
// test binary, the project's own code.
func unknownGoOptions(cmd *Command, t *optTable, args []Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || v == "--" || len(v) < 2 || v[0] != '-' {
			return // the packages: flags after them are the test binary's (go test) or an error
		}
		name, _, hasVal := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
		if n, ok := strings.CutPrefix(name, "test."); ok && t.long["args"] != 0 {
			name = n // go test passes -test.run on as -run
		}
		if name == "args" && t.long["args"] != 0 {
			return
		}
		switch k := t.long[name]; {
		case k == 0:
			cmd.UnknownOptions = append(cmd.UnknownOptions, a)
		case k == '=' && !hasVal:
			i++
		}
	}
}

// goIndirectFiles reports the files a go command reads or writes that
// its own flags do not name directly (args are the words after go):
//   - -overlay FILE is a JSON map from source paths to the files go
//     compiles in their place (an ignored file there is read, and printed
//     in the compiler's errors): an unknown reference, the gate cannot
//     see inside it;
//   - -test.cpuprofile=FILE and the other flags of the test binary
//     (before or after -args) read or write the file named as go test's
//     own -cpuprofile does (its role in the go entry).
//
// roles is the go entry's (see goRefs).
func (s *state) goIndirectFiles(cmd *Command, args []Word, roles *roleTable) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || v == "--" || len(v) < 2 || v[0] != '-' {
			continue // the subcommand, packages, or a flag's value
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
		if name == "overlay" {
			cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: a.Pos,
				Message: "go -overlay reads the files its JSON map names in place of the sources"})
			continue
		}
		rest, ok := strings.CutPrefix(name, "test.")
		r, _ := roles.goFlag(rest)
		if !ok || r&(writesFile|readsFile) == 0 {
			continue
		}
		w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
		if !hasVal {
			if i+1 >= len(args) {
				return
			}
			i++
			w = args[i]
		}
		s.fileRef(cmd, w, RefOption, useOf(r&writesFile != 0, false))
	}
}
