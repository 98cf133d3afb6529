package policy_test

import (
	"testing"

	"github.com/cmdguard/cmdguard/policy"
	"github.com/google/go-cmp/cmp"
)

func TestEnvSafe(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nenv_safe: [NODE_ENV, MYAPP_*]\n")
	if diff := cmp.Diff([]string{"NODE_ENV", "MYAPP_*"}, p.EnvSafe()); diff != "" {
		t.Errorf("EnvSafe() mismatch (-want +got):\n%s", diff)
	}
	if got := mustParse(t, "version: 1\n").EnvSafe(); got != nil {
		t.Errorf("EnvSafe() without the key = %q, want nil", got)
	}
	for _, bad := range []string{"[\"*\"]", "[1X]", "[\"A B\"]", "[\"\"]", "x"} {
		if _, err := policy.Parse("p.yaml", []byte("version: 1\nenv_safe: "+bad+"\n"), t.TempDir()); err == nil {
			t.Errorf("env_safe: %s parsed, want an error", bad)
		}
	}
}
