package decisionlog

import (
	"strings"
	"testing"
)

// secret is the value every corpus row hides: no sink may show it.
const secret = "s3cr3tVALUE42"

// maskCorpus holds commands that carry secret, each as an agent would
// write it.
var maskCorpus = []string{
	"GITHUB_TOKEN=" + secret + " gh pr list",
	"export API_KEY=" + secret,
	"env AWS_SECRET_ACCESS_KEY=" + secret + " aws s3 ls",
	"PGPASSWORD='" + secret + "' psql -h db",
	`DB_PASS="` + secret + ` more" ./migrate`,
	"auth_header=" + secret + " ./x",
	"curl -H 'Authorization: Bearer " + secret + "' https://api.example.com",
	`curl -H "Authorization: token ` + secret + `" https://api.github.com/user`,
	`curl --header "X-Api-Key: ` + secret + `" https://x`,
	`curl -H "PRIVATE-TOKEN: ` + secret + `" https://gitlab/api`,
	"git clone https://user:" + secret + "@github.com/o/r.git",
	"git clone https://" + secret + "@github.com/o/r.git",
	"psql postgres://admin:" + secret + "@db:5432/app",
	"mysql -u root -p" + secret + " app",
	"mysql --password=" + secret + " app",
	"docker login --password " + secret + " registry",
	"some-tool --api-key=" + secret,
	"npm config set //registry/:_authToken=" + secret,
	"curl -u admin:" + secret + " https://x",
	"curl --user=admin:" + secret + " https://x",
	"sshpass -p " + secret + " ssh host",
	"redis-cli -h r -a " + secret + " ping",
	"bash -c 'TOKEN=" + secret + " ./deploy'",
	"echo ok && SECRET=" + secret + " make",
	"wget --http-password=" + secret + " https://x",
	"gh auth login --with-token <<< ghp_abcdefghijklmnopqrstuvwxyz0123456789",
}

func TestMaskCorpus(t *testing.T) {
	for _, cmd := range maskCorpus {
		got := Mask(cmd)
		if strings.Contains(got, secret) || strings.Contains(got, "ghp_abc") {
			t.Errorf("Mask(%q) = %q: the secret shows", cmd, got)
		}
		if !strings.Contains(got, Masked) {
			t.Errorf("Mask(%q) = %q: nothing masked", cmd, got)
		}
	}
}

// TestMaskKeepsPlainCommands: a command with no secret is kept as it is.
func TestMaskKeepsPlainCommands(t *testing.T) {
	for _, cmd := range []string{
		"ls -la",
		"git push origin main",
		"go test ./... -run TestX",
		"grep -r 'key' src",
		"cat README.md | wc -l",
		"curl https://example.com/path?q=1",
		"FOO=bar make",
	} {
		if got := Mask(cmd); got != cmd {
			t.Errorf("Mask(%q) = %q, want it unchanged", cmd, got)
		}
	}
}
