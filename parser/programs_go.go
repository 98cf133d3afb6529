package parser

import "slices"

// programsGo: the go command and its subcommands (see gooptions.go).
var programsGo = map[string]program{
	"go": {
		options: []opt{val(runs, "-exec -toolexec")},
		env:     []envVar{{"GOFLAGS", envCode}, {"GOCACHEPROG", envCode}, {"GCCGO", envCode}, {"GOENV", envCode}, {"GOTOOLCHAIN", envCode}, {"GOROOT", envCode}, {"GOPATH", envCode}, {"GOPROXY", envCode}, {"GOBIN", envCode}, {"CGO_*", envCode}, {"CC", envCode}, {"CXX", envCode}, {"FC", envCode}, {"AR", envCode}, {"PKG_CONFIG", envCode}, {"CGO_ENABLED", envHarmless}, {"GOOS", envHarmless}, {"GOARCH", envHarmless}, {"GOARM", envHarmless}, {"GOAMD64", envHarmless}},
		goFlags: true,
		files:   fileSpec{reader: readGo}, // see goFlags (files.go)
		dirSafe: true,
		subs: map[string]*program{
			"build": {
				options: slices.Concat(goBuildOpts, []opt{val(0, "-o"), flags("-json")}), complete: true,
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
			"doc": {options: []opt{flags("-all -c -cmd -short -src -u"), optional(0, "-http")}, complete: true},
			// The installs (installs.go).
			"mod": {subs: map[string]*program{"download": {options: goModDownload, complete: true}}},
			"get": {options: goGet, complete: true},
			"env": {
				options: []opt{flags("-json -u -w -changed")}, complete: true,
				guards: []optionGuard{
					{goFlags: true, options: []string{"-w", "-u"}, why: "changes the Go configuration"},
				},
			},
			"generate": {
				guards: []optionGuard{
					{why: "runs the programs named by //go:generate lines"},
				},
			},
			"list": {
				options: slices.Concat(goBuildOpts, []opt{flags("-compiled -deps -e -export -find -m -retracted -test -u -versions"), val(0, "-f -reuse"), optional(0, "-json")}), complete: true,
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
			"test": {
				options: []opt{
					val(0, "-C -p -covermode -coverpkg -asmflags -buildmode -compiler -gccgoflags -gcflags -installsuffix -ldflags -mod -modfile -overlay -pgo -pkgdir -tags -toolexec -debug-actiongraph -debug-runtime-trace -debug-trace -exec -o -bench -benchtime -blockprofile -blockprofilerate -count -coverprofile -cpu -cpuprofile -fuzz -fuzzcachedir -fuzzminimizetime -fuzztime -list -memprofile -memprofilerate -mutexprofile -mutexprofilefraction -outputdir -parallel -run -shuffle -skip -timeout -trace -vet -gocoverdir"),
					flags("-a -n -race -msan -asan -cover -v -work -x -linkshared -modcacherw -trimpath -args -c -json -benchmem -failfast -fullpath -short -artifacts"),
					optional(0, "-buildvcs"),
				},
				complete: true,
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
					{goFlags: true, options: []string{"-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir", "-gocoverdir", "-fuzzcachedir"}, why: "writes a profile where you choose"},
				},
			},
			"version": {options: []opt{flags("-m -v -json")}, complete: true},
			"vet": {
				options: []opt{
					val(0, "-C -p -covermode -coverpkg -asmflags -buildmode -compiler -gccgoflags -gcflags -installsuffix -ldflags -mod -modfile -overlay -pgo -pkgdir -tags -toolexec -debug-actiongraph -debug-runtime-trace -debug-trace -vettool -c -printf.funcs -printfuncs -unusedfuncs -unusedresult.funcs -unusedresult.stringmethods -unusedstringmethods"),
					flags("-a -n -race -msan -asan -cover -v -work -x -linkshared -modcacherw -trimpath -V -all -appends -asmdecl -assign -atomic -bool -bools -buildtag -buildtags -cgocall -composites -composites.whitelist -compositewhitelist -copylocks -defers -diff -directive -errorsas -flags -framepointer -hostport -httpresponse -ifaceassert -json -loopclosure -lostcancel -methods -nilfunc -printf -rangeloops -shift -sigchanyzer -slog -source -stdmethods -stdversion -stringintconv -structtag -testinggoroutine -testinggoroutine.subtest -tests -timeformat -unmarshal -unreachable -unsafeptr -unusedresult -waitgroup"),
					optional(0, "-buildvcs"),
				},
				complete: true,
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
		},
	},
}
