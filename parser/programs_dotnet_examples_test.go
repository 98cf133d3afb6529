package parser

// dotnetExamples are the examples of the entries of programs_dotnet.go, beside
// them: see programExamples.
var dotnetExamples = map[string][]programExample{
	"dotnet":       {{cmd: "dotnet --info", reading: ""}},
	"dotnet build": {{cmd: "dotnet build", reading: ""}},
	"dotnet test":  {{cmd: "dotnet test", reading: ""}},
}
