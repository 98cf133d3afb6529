package parser

import "strings"

// JVM: gradle and its wrapper, maven and its wrapper. The build scripts
// (build.gradle, pom.xml's plugins) are code: the embedded default
// allows them under the sandbox only. What the build fetches is the
// sandbox's egress list's to decide; tasks and goals that publish
// (publish, deploy, release) and options that run another build or
// script (an init script, another settings or build file, a JVM of the
// command's choosing) are guard hits, as is every option the entries do
// not list.

const jvmWhy = "runs another build, script or JVM, publishes, or is an option the gate does not know"

var (
	gradleLead = newLead("gradle", false, []opt{
		val(0, "-D -P -x --console --exclude-task --max-workers --project-prop --tests --warning-mode --priority --args"),
		flags("-S -a -d -h -i -m -q -s -t -v -w --build-cache --configuration-cache --continue --continuous --daemon --debug --dry-run --help --info --no-build-cache --no-configuration-cache --no-daemon --no-parallel --no-rebuild --no-watch-fs --offline --parallel --quiet --refresh-dependencies --rerun --rerun-tasks --stacktrace --status --stop --version --warn --watch-fs --full-stacktrace"),
		val(projectPath, "--project-dir"),
	})

	mvnWords = map[string]bool{
		"-B": true, "--batch-mode": true, "-q": true, "--quiet": true, "-X": true, "--debug": true, "-e": true, "--errors": true,
		"-o": true, "--offline": true, "-U": true, "--update-snapshots": true, "-am": true, "--also-make": true, "-amd": true,
		"--also-make-dependents": true, "-ntp": true, "--no-transfer-progress": true, "-nsu": true, "--no-snapshot-updates": true,
		"-fae": true, "--fail-at-end": true, "-ff": true, "--fail-fast": true, "-fn": true, "--fail-never": true, "-V": true,
		"--show-version": true, "-v": true, "--version": true, "-h": true, "--help": true, "-N": true, "--non-recursive": true,
		"-C": true, "--strict-checksums": true, "-c": true, "--lax-checksums": true, "--color": true,
	}
	// mvnValues take the next word (or are followed by it attached, -T4).
	mvnValues = map[string]bool{"-T": true, "--threads": true, "-pl": true, "--projects": true, "-rf": true, "--resume-from": true,
		"-P": true, "--activate-profiles": true, "-l": true, "--log-file": true}
)

// gradleRisk is gradle's guard: -D of a property that picks the JVM, a
// program or a proxy (see riskyProperty), -I/--init-script, -c/--settings-file, -b/--build-file,
// -g/--gradle-user-home, --include-build, --scan (uploads), an option
// gradle's list does not hold, and the publishing tasks.
func gradleRisk(argv []string, i int) int {
	if hit := gradleLead.check(argv, i); hit >= 0 {
		return hit
	}
	for k := i; k < len(argv); k++ {
		if publishes(argv[k]) || strings.HasPrefix(argv[k], "-D") && riskyProperty(argv[k][2:]) {
			return k
		}
	}
	return -1
}

// mvnRisk is maven's guard: options are whole words (-pl, -am, -ntp),
// -DNAME=VALUE sets a property (those naming a program, a repository
// or a file outside the project are hits), -f/--file, -s/--settings,
// -gs, -t/--toolchains pick another build; and the goals that publish.
func mvnRisk(argv []string, i int) int {
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			return i
		case len(a) < 2 || a[0] != '-':
			if publishes(a) {
				return i
			}
		case mvnWords[a]:
		case mvnValues[a]:
			i++
		case strings.HasPrefix(a, "-T") || strings.HasPrefix(a, "-P") || strings.HasPrefix(a, "-pl") || strings.HasPrefix(a, "-rf"):
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			if riskyProperty(a[2:]) {
				return i
			}
		default:
			return i
		}
	}
	return -1
}

// riskyProperty reports a -DNAME=VALUE system property that picks a
// program, a JVM, a repository, settings or a proxy, or whose value the
// gate cannot read: -Dexec.executable, -Dorg.gradle.java.home,
// -Dmaven.repo.local, -DargLine, -Dhttps.proxyHost.
func riskyProperty(prop string) bool {
	name, val, _ := strings.Cut(prop, "=")
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "exec.") || strings.HasPrefix(n, "maven.repo") || strings.Contains(n, "settings") ||
		strings.Contains(n, "executable") || strings.HasPrefix(n, "jvm") || strings.Contains(val, "$") || strings.Contains(val, "`") ||
		strings.HasPrefix(n, "argline") || strings.HasPrefix(n, "http") || strings.HasPrefix(n, "org.gradle.") ||
		strings.Contains(n, "java.home") || strings.Contains(n, "agent") || strings.Contains(n, "toolchain")
}

// publishes reports a gradle task or maven goal that uploads the build
// (publish, publishToMavenCentral, deploy, release:perform).
func publishes(word string) bool {
	w := strings.ToLower(word)
	w = w[strings.LastIndexByte(w, ':')+1:]
	if strings.HasSuffix(w, "tomavenlocal") {
		return false // into ~/.m2, which the sandbox keeps read-only
	}
	return strings.HasPrefix(w, "publish") || strings.HasPrefix(w, "upload") || w == "deploy" || strings.HasPrefix(word, "release:") ||
		strings.HasPrefix(w, "perform") || strings.HasPrefix(w, "closeandrelease")
}

func gradleEntry() program {
	return program{
		files:  fileSpec{none: true}, // tasks, not files
		env:    []envVar{{"GRADLE_OPTS", envCode}, {"JAVA_OPTS", envCode}, {"JAVA_HOME", envCode}, {"GRADLE_USER_HOME", envCode}},
		checks: []guardCheck{{check: gradleRisk, why: jvmWhy}},
	}
}

func mvnEntry() program {
	return program{
		files:  fileSpec{none: true}, // goals and phases, not files
		env:    []envVar{{"MAVEN_OPTS", envCode}, {"MAVEN_ARGS", envCode}, {"JAVA_OPTS", envCode}, {"JAVA_HOME", envCode}},
		checks: []guardCheck{{check: mvnRisk, why: jvmWhy}},
	}
}

var programsJVM = map[string]program{
	"gradle": runsProject(gradleEntry(), runner{except: printsOnly, what: "runs the build scripts"}),
	// The wrappers are the project's own scripts: even --version runs
	// them (and they may fetch a build tool).
	"gradlew": runsProject(gradleEntry(), runner{what: "runs the project's gradle wrapper script and the build scripts"}),
	"mvn":     runsProject(mvnEntry(), runner{except: printsOnly, what: "runs the build's plugins and tests"}),
	"mvnw":    runsProject(mvnEntry(), runner{what: "runs the project's maven wrapper script and the build's plugins"}),
	// The wrappers as the project runs them: guards are looked up by the
	// program word as written.
	"./gradlew": gradleEntry(),
	"./mvnw":    mvnEntry(),
	// Known only as programs that run the project's code (see runner):
	// their options are not checked, their operands read.
	"ant": {project: &runner{except: printsOnly, what: "runs build.xml"}},
	"sbt": {project: &runner{except: printsOnly, what: "runs the build definition"}},
}
