package parser

import "slices"

// programsGo: the go command and its subcommands (see gooptions.go).
var programsGo = map[string]program{
	"go": {
		// Go: test binaries, go run's main, //go:generate lines, and cgo
		// (C code and #cgo directives of any package, on whenever a C
		// compiler is found) and -toolexec for build, vet and install; go tool
		// runs the tools the module declares.
		project: &runner{subs: []string{"test", "run", "generate", "vet", "build", "install", "tool"}, except: printsOnly, what: "builds and runs the package's code"},
		// The flags with a value of every subcommand, for the file
		// reader (goRefs, goIndirectFiles): files written, files read,
		// programs run, and the rest (maybe a file).
		options: []opt{
			val(writesFile, "-o -coverprofile -cpuprofile -memprofile -blockprofile -mutexprofile -trace -outputdir -pkgdir"),
			val(readsFile, "-modfile -overlay -pgo -C"),
			val(runs, "-exec -toolexec"),
			val(0, "-run -bench -count -timeout -tags -ldflags -gcflags -asmflags -p -parallel -cpu -benchtime -covermode -coverpkg -mod -buildmode -compiler -installsuffix -shuffle -list -skip -fuzz -fuzztime -fuzzminimizetime -vet -gccgoflags -buildvcs -f"),
		},
		env:     []envVar{{"GOFLAGS", envCode}, {"GOCACHEPROG", envCode}, {"GCCGO", envCode}, {"GOENV", envCode}, {"GOTOOLCHAIN", envCode}, {"GOROOT", envCode}, {"GOPATH", envCode}, {"GOPROXY", envCode}, {"GOBIN", envCode}, {"CGO_*", envCode}, {"CC", envCode}, {"CXX", envCode}, {"FC", envCode}, {"AR", envCode}, {"PKG_CONFIG", envCode}, {"CGO_ENABLED", envHarmless}, {"GOOS", envHarmless}, {"GOARCH", envHarmless}, {"GOARM", envHarmless}, {"GOAMD64", envHarmless}},
		goFlags: true,
		// go get, go mod, go work write go.mod, go.sum, go.work.
		writesUnlistedIn: []string{"get", "mod", "work"},
		files:            fileSpec{reader: readGo}, // see goRefs (files.go)
		dirSafe:          true,
		subs: map[string]*program{
			"build": {
				options: slices.Concat(goBuildOpts, []opt{val(0, "-o"), flags("-json"), guard(goBuildWhy, "-exec -vettool")}), complete: true,
			},
			"doc": {options: []opt{flags("-all -c -cmd -short -src -u"), optional(0, "-http")}, complete: true},
			// The installs (installs.go).
			"mod": {subs: map[string]*program{"download": {options: goModDownload, complete: true}}},
			"get": {options: goGet, complete: true},
			"env": {
				options: []opt{flags("-json -changed"), flags("-u -w").guard("changes the Go configuration")}, complete: true,
			},
			"generate": {
				checks: []guardCheck{
					{why: "runs the programs named by //go:generate lines"},
				},
			},
			"list": {
				options: slices.Concat(goBuildOpts, []opt{flags("-compiled -deps -e -export -find -m -retracted -test -u -versions"), val(0, "-f -reuse"), optional(0, "-json"), guard(goBuildWhy, "-exec -vettool")}), complete: true,
			},
			"test": {
				options: slices.Concat(goBuildOpts, []opt{
					val(0, "-exec").guard(goBuildWhy),
					guard(goBuildWhy, "-vettool"),
					val(0, "-o -bench -benchtime -blockprofilerate -count -cpu -fuzz -fuzzminimizetime -fuzztime -list -memprofilerate -mutexprofilefraction -parallel -run -shuffle -skip -timeout -vet"),
					val(0, "-blockprofile -coverprofile -cpuprofile -fuzzcachedir -gocoverdir -memprofile -mutexprofile -outputdir -trace").guard("writes a profile where you choose"),
					flags("-args -c -json -benchmem -failfast -fullpath -short -artifacts"),
				}),
				complete: true,
			},
			"version": {options: []opt{flags("-m -v -json")}, complete: true},
			"vet": {
				options: slices.Concat(goBuildOpts, []opt{
					val(0, "-vettool").guard(goBuildWhy),
					guard(goBuildWhy, "-exec"),
					val(0, "-c -printf.funcs -printfuncs -unusedfuncs -unusedresult.funcs -unusedresult.stringmethods -unusedstringmethods"),
					flags("-V -all -appends -asmdecl -assign -atomic -bool -bools -buildtag -buildtags -cgocall -composites -composites.whitelist -compositewhitelist -copylocks -defers -diff -directive -errorsas -flags -framepointer -hostport -httpresponse -ifaceassert -json -loopclosure -lostcancel -methods -nilfunc -printf -rangeloops -shift -sigchanyzer -slog -source -stdmethods -stdversion -stringintconv -structtag -testinggoroutine -testinggoroutine.subtest -tests -timeformat -unmarshal -unreachable -unsafeptr -unusedresult -waitgroup"),
				}),
				complete: true,
			},
		},
	},
}
