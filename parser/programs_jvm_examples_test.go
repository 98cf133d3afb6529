package parser

// jvmExamples are the examples of the entries of programs_jvm.go, beside
// them: see programExamples.
var jvmExamples = map[string][]programExample{

	// The ecosystems (js, python, rust, jvm, build tools), inspectors and editors: readings reviewed against their manuals (a project's build runs its code: runners.go, not file references here); with a setup, judged with the real program.
	"./gradlew": {{cmd: "./gradlew build", reading: ""}},
	"./mvnw":    {{cmd: "./mvnw test", reading: ""}},
	"gradle":    {{cmd: "gradle build", reading: ""}},
	"gradlew":   {{cmd: "gradlew build", reading: ""}},
	"mvn":       {{cmd: "mvn test", reading: ""}},
	"mvnw":      {{cmd: "mvnw test", reading: ""}},
	// Known only as runners of the project's code: the default reading.
	"sbt": {{cmd: "sbt test", reading: "test:rec"}},
	"ant": {{cmd: "ant build", reading: "build:rec"}},
}
