package parser

import (
	"strings"
	"sync"
)

// goBuildOpts are the build flags go build, test, vet and list share
// (go help build), in the syntax of programs' options, with one dash:
// Go flags are -name or --name, -name=value or -name value, never
// clustered.
const goBuildOpts = "-C= -a -n -p= -race -msan -asan -cover -covermode= -coverpkg= -v -work -x -asmflags= -buildmode= " +
	"-buildvcs? -compiler= -gccgoflags= -gcflags= -installsuffix= -ldflags= -linkshared -mod= -modcacherw -modfile= " +
	"-overlay= -pgo= -pkgdir= -tags= -trimpath -toolexec= -debug-actiongraph= -debug-runtime-trace= -debug-trace= "

// goOptions lists the flags of the go subcommands the embedded default
// policy allows (go help build, go help testflag, go tool vet -flags, go
// help list, version, env, doc). Under the default policy another flag
// before the packages is policy.unknown_option (ask). Flags after go
// test's packages go to the test binary, the project's own code.
var goOptions = map[string]string{
	"build": goBuildOpts + "-o= -json",
	"test": goBuildOpts + "-args -c -exec= -json -o= -bench= -benchmem -benchtime= -blockprofile= -blockprofilerate= " +
		"-count= -coverprofile= -cpu= -cpuprofile= -failfast -fullpath -fuzz= -fuzzcachedir= -fuzzminimizetime= " +
		"-fuzztime= -list= -memprofile= -memprofilerate= -mutexprofile= -mutexprofilefraction= -outputdir= " +
		"-parallel= -run= -short -shuffle= -skip= -timeout= -trace= -vet= -artifacts -gocoverdir=",
	"vet": goBuildOpts + "-vettool= -V -all -appends -asmdecl -assign -atomic -bool -bools -buildtag -buildtags " +
		"-c= -cgocall -composites -composites.whitelist -compositewhitelist -copylocks -defers -diff -directive " +
		"-errorsas -flags -framepointer -hostport -httpresponse -ifaceassert -json -loopclosure -lostcancel " +
		"-methods -nilfunc -printf -printf.funcs= -printfuncs= -rangeloops -shift -sigchanyzer -slog -source " +
		"-stdmethods -stdversion -stringintconv -structtag -testinggoroutine -testinggoroutine.subtest -tests " +
		"-timeformat -unmarshal -unreachable -unsafeptr -unusedfuncs= -unusedresult -unusedresult.funcs= " +
		"-unusedresult.stringmethods= -unusedstringmethods= -waitgroup",
	"list":    goBuildOpts + "-compiled -deps -e -export -f= -find -json? -m -retracted -reuse= -test -u -versions",
	"version": "-m -v -json",
	"env":     "-json -u -w -changed",
	"doc":     "-all -c -cmd -short -src -u -http?",
}

// goOptTables are goOptions parsed: flag name → 'f' bool (takes =value
// too), '=' value, '?' optional attached value.
var goOptTables = sync.OnceValue(func() map[string]map[string]byte {
	m := make(map[string]map[string]byte, len(goOptions))
	for sub, spec := range goOptions {
		t := map[string]byte{}
		for _, tok := range strings.Fields(spec) {
			kind := byte('f')
			if c := tok[len(tok)-1]; c == '=' || c == '?' {
				kind = c
				tok = tok[:len(tok)-1]
			}
			t[strings.TrimPrefix(tok, "-")] = kind
		}
		m[sub] = t
	}
	return m
})

// unknownGoOptions reports the flags of a go command that goOptions does
// not list for its subcommand (nothing for a subcommand without an
// entry).
func unknownGoOptions(cmd *Command, args []Word) {
	if len(args) == 0 || args[0].Dynamic {
		return
	}
	t := goOptTables()[args[0].Value]
	if t == nil {
		return
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || v == "--" || len(v) < 2 || v[0] != '-' {
			return // the packages: flags after them are the test binary's (go test) or an error
		}
		name, _, hasVal := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
		if args[0].Value == "test" {
			name = strings.TrimPrefix(name, "test.")
			if name == "args" {
				return
			}
		}
		switch k := t[name]; {
		case k == 0:
			cmd.UnknownOptions = append(cmd.UnknownOptions, a)
		case k == '=' && !hasVal:
			i++
		}
	}
}
