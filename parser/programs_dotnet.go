package parser

import "slices"

// .NET: dotnet build and dotnet test run MSBuild targets and the
// project's tests, its code (allowed under the sandbox only, see
// runners). Their options are listed; one the gate does not know, a
// --settings or --logger that loads other code, an output or results
// directory outside the project, or an MSBuild property (-p:, which may
// set the tool a target runs) is a guard hit. The project or solution
// operand is the project's file; the restore they run first fetches
// from NuGet, which the sandbox's egress list decides.

var dotnetCommon = []opt{
	val(0, "-a -c -f -r -v --arch --configuration --framework --os --runtime --verbosity --version-suffix"),
	flags("-h --disable-build-servers --help --interactive --no-dependencies --no-incremental --no-restore --nologo --self-contained --use-current-runtime"),
	optional(0, "--tl"),
}

const dotnetWhy = "is a dotnet option the gate does not know (-p: MSBuild properties, --settings, --logger and --collect load or " +
	"set other code), or a directory outside the project"

var (
	dotnetBuild = newLead("dotnet build", false, slices.Concat(dotnetCommon, []opt{val(projectPath, "-o --output")}))
	dotnetTest  = newLead("dotnet test", false, slices.Concat(dotnetCommon, []opt{val(projectPath, "-o --output --results-directory"), flags("--blame --list-tests --no-build"), val(0, "--filter")}))
	dotnetTop   = newLead("dotnet", true, []opt{flags("-h --help --info --list-runtimes --list-sdks --version")})
)

var programsDotnet = map[string]program{
	"dotnet": {
		project: &runner{subs: []string{"test", "run", "build", "msbuild", "pack", "publish"}, except: printsOnly, what: "runs MSBuild targets and the project's code"},
		files:   fileSpec{none: true},
		env:     []envVar{{"DOTNET_*", envCode}, {"MSBuild*", envCode}, {"MSBUILD*", envCode}},
		checks:  []guardCheck{{check: dotnetTop.check, why: dotnetWhy}},
		subs: map[string]*program{
			"build": {checks: []guardCheck{{check: dotnetBuild.check, why: dotnetWhy}}},
			"test":  {checks: []guardCheck{{check: dotnetTest.check, why: dotnetWhy}}},
		},
	},
}
