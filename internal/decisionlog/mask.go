package decisionlog

import (
	"regexp"
	"slices"
	"strings"
)

// Masked is what a secret is replaced by.
const Masked = "***"

// word is one shell word: quoted parts and bare characters up to a
// blank or an operator.
const word = `(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s;&|<>()'"\\])+`

// secretName is a part of a name that holds a secret.
const secretName = `(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|AUTH|CREDENTIALS?|APIKEY|PRIVATE|SESSION|COOKIE)`

// secretWords are the lower-case parts of secretName: a command holding
// none of them needs no name-based mask.
var secretWords = []string{"key", "token", "secret", "pass", "pwd", "auth", "credential", "private", "session", "cookie"}

var masks = []struct {
	need []string // the mask applies only to a command holding one of these (lower case)
	re   *regexp.Regexp
	repl func(m []string) string
}{
	// Credentials in URLs: scheme://user:pass@host, scheme://token@host.
	{[]string{"://"}, regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://)([^/\s@'"]+)@`), func(m []string) string {
		if i := strings.IndexByte(m[2], ':'); i >= 0 {
			return m[1] + m[2][:i+1] + Masked + "@"
		}
		return m[1] + Masked + "@"
	}},
	// Assignments to names that hold a secret: GITHUB_TOKEN=…, export
	// api_key=…, env PGPASSWORD=…, declare -x AUTH_X=….
	{secretWords, regexp.MustCompile(`(?i)(\b[A-Za-z0-9_]*` + secretName + `[A-Za-z0-9_]*=)(` + word + `)`), keep1},
	// Options that name a secret: --password=…, --api-key …, --token ….
	{secretWords, regexp.MustCompile(`(?i)((?:^|[\s'"])--?(?:[a-z0-9]+[-_])*` + secretName + `(?:[-_][a-z0-9]+)*(?:=|\s+))(` + word + `)`), keep1},
	// Headers: Authorization: Bearer …, X-Api-Key: …, Cookie: ….
	{secretWords, regexp.MustCompile(`(?i)(\b(?:proxy-)?(?:authorization|cookie|[a-z0-9-]*(?:token|key|secret|auth|password|session)[a-z0-9-]*)\s*:\s*)([^'"\n]+)`), keep1},
	// User and password of curl and wget: -u user:pass, --user=user:pass.
	{[]string{"-u", "user"}, regexp.MustCompile(`((?:^|\s)(?:-u|--user|--proxy-user|--http-user|--ftp-user)(?:=|\s*)['"]?[^\s:'"]*:)([^\s'"]+)`), keep1},
	// -pSECRET of the MySQL family, -p SECRET of sshpass, -a of redis-cli.
	{[]string{"mysql", "mariadb"}, regexp.MustCompile(`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b[^;&|\n]*?\s-p)(` + word + `)`), keep1},
	{[]string{"sshpass"}, regexp.MustCompile(`(\bsshpass\s+-p\s*)(` + word + `)`), keep1},
	{[]string{"redis-cli"}, regexp.MustCompile(`(\bredis-cli\b[^;&|\n]*?\s-a\s+)(` + word + `)`), keep1},
	// Tokens that say what they are wherever they stand.
	{[]string{"gh", "github_pat_", "glpat-", "sk-", "xox", "akia", "aiza", "eyj"}, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`), func([]string) string { return Masked }},
}

func keep1(m []string) string { return m[1] + Masked }

// Mask returns cmd with the values that look like secrets replaced by
// "***": assignments to names holding KEY, TOKEN, SECRET, PASSWORD, PASS
// or AUTH; credentials in URLs; Authorization, Cookie and token headers;
// --password=… and the like, curl -u user:pass, mysql -pX, sshpass -p X;
// tokens with a known prefix (ghp_, sk-, AKIA, xoxb-, JWTs). It masks too
// much rather than too little.
func Mask(cmd string) string {
	lower := strings.ToLower(cmd)
	for _, m := range masks {
		if !slices.ContainsFunc(m.need, func(w string) bool { return strings.Contains(lower, w) }) {
			continue
		}
		cmd = m.re.ReplaceAllStringFunc(cmd, func(s string) string {
			return m.repl(m.re.FindStringSubmatch(s))
		})
	}
	return cmd
}
