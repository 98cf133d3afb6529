package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestManagedDenyBeatsProjectAllow: the project allows every git and cat
// and lists no deny; the managed layer denies git push --force and
// re-rates path.outside_root; the project's own rating of it (allow)
// loses.
func TestManagedDenyBeatsProjectAllow(t *testing.T) {
	mpath := managedFile(t, `version: 1
deny:
  - git push --force
ask:
  - git push
rules:
  path.outside_root: deny
allow: [rm]
`)
	root := project(t, testPolicy+"rules:\n  path.outside_root: allow\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd   string
		want  cmdguard.Verdict
		rule  string
		line  int
		layer string
	}{
		{"git push --force origin main", cmdguard.Deny, "policy.deny", 3, cmdguard.LayerManaged},
		{"git push -f origin main", cmdguard.Deny, "policy.deny", 3, cmdguard.LayerManaged}, // spelled otherwise
		{"git push origin main", cmdguard.Ask, "policy.ask", 5, cmdguard.LayerManaged},
		{"cat /etc/hostname", cmdguard.Deny, "path.outside_root", 7, cmdguard.LayerManaged},
		{"git status", cmdguard.Allow, "policy.allow", 0, cmdguard.LayerProject},
		// The managed allow: lifts nothing: the project asks for rm.
		{"rm x", cmdguard.Ask, "policy.no_match", 0, cmdguard.LayerProject},
		{"rm -rf x", cmdguard.Deny, "policy.deny", 0, cmdguard.LayerProject},
	} {
		d := checkIn(t, g, tc.cmd)
		if d.Verdict != tc.want || len(d.Reasons) == 0 || d.Reasons[0].Rule != tc.rule || d.Layer != tc.layer {
			t.Errorf("Check(%q) = %s %+v layer %q; want %s by %s, layer %s", tc.cmd, d.Verdict, d.Reasons, d.Layer, tc.want, tc.rule, tc.layer)
			continue
		}
		if tc.line > 0 {
			if want := mpath + ":" + itoa(tc.line); d.Reasons[0].Source != want {
				t.Errorf("Check(%q) source %q, want %q", tc.cmd, d.Reasons[0].Source, want)
			}
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestManagedRatingBeatsSandbox: a managed rating of ignore.denied holds
// under the sandbox, which otherwise carries the finding (allow,
// enforced_by: sandbox).
func TestManagedRatingBeatsSandbox(t *testing.T) {
	root := project(t, testPolicy)
	t.Setenv(cmdguard.ManagedEnv, "")
	g0, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	req := cmdguard.Request{Command: "cat .env", BaseEnv: []string{}, Sandboxed: true}
	d0, _ := g0.Check(context.Background(), req)
	managedFile(t, "version: 1\nrules:\n  ignore.denied: deny\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := g.Check(context.Background(), req)
	if d.Verdict != cmdguard.Deny || d.Reasons[0].Rule != "ignore.denied" || d.Reasons[0].EnforcedBy != "" {
		t.Errorf("sandboxed cat .env with managed ignore.denied: deny = %s %+v; without the managed layer %s %+v", d.Verdict, d.Reasons, d0.Verdict, d0.Reasons)
	}
}

// TestManagedFailsClosed: a managed file that does not load, or that
// CMDGUARD_MANAGED names and that is missing or unreadable, denies every
// check with the reason; fixing it restores the project's answers (live).
func TestManagedFailsClosed(t *testing.T) {
	root := project(t, testPolicy)
	dir := t.TempDir()
	for name, setup := range map[string]func() string{
		"invalid": func() string {
			p := filepath.Join(dir, "bad.yaml")
			os.WriteFile(p, []byte("version: 1\ndeny: [\n"), 0o644)
			return p
		},
		"unknown key": func() string {
			p := filepath.Join(dir, "unknown.yaml")
			os.WriteFile(p, []byte("version: 1\nallowed: [ls]\n"), 0o644)
			return p
		},
		"missing":   func() string { return filepath.Join(dir, "none.yaml") },
		"directory": func() string { return dir },
	} {
		p := setup()
		t.Setenv(cmdguard.ManagedEnv, p)
		g, err := cmdguard.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		d, err := g.Check(context.Background(), cmdguard.Request{Command: "ls", BaseEnv: []string{}})
		if d.Verdict != cmdguard.Deny || err == nil || d.Reasons[0].Rule != "policy.invalid" || d.Reasons[0].Source != p {
			t.Errorf("%s managed file: Check(ls) = %s %+v, %v; want deny policy.invalid naming %s and an error", name, d.Verdict, d.Reasons, err, p)
		}
	}
	// Live: the file fixed, the same Guard allows again; broken, denies.
	p := filepath.Join(dir, "live.yaml")
	os.WriteFile(p, []byte("version: 1\ndeny: [\n"), 0o644)
	t.Setenv(cmdguard.ManagedEnv, p)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := checkIn(t, g, "ls"); d.Verdict != cmdguard.Deny {
		t.Fatalf("broken managed: ls = %s", d.Verdict)
	}
	os.WriteFile(p, []byte("version: 1\ndeny: [ls -R]\n"), 0o644)
	if d := checkIn(t, g, "ls"); d.Verdict != cmdguard.Allow {
		t.Errorf("fixed managed: ls = %s %+v, want allow", d.Verdict, d.Reasons)
	}
	if d := checkIn(t, g, "ls -R"); d.Verdict != cmdguard.Deny || d.Layer != cmdguard.LayerManaged {
		t.Errorf("fixed managed: ls -R = %s %+v layer %q, want deny by the managed layer", d.Verdict, d.Reasons, d.Layer)
	}
	os.WriteFile(p, []byte("version: 1\ndeny: [ls -R, ls]\n"), 0o644)
	if d := checkIn(t, g, "ls"); d.Verdict != cmdguard.Deny {
		t.Errorf("managed edited to deny ls: ls = %s, want deny (live reload)", d.Verdict)
	}
}

// TestManagedExplainNamesLayer: explain's trace holds the managed
// layer's steps and says which layer decided.
func TestManagedExplainNamesLayer(t *testing.T) {
	mpath := managedFile(t, "version: 1\ndeny: [git push]\n")
	g, err := cmdguard.Open(project(t, testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := g.Explain(context.Background(), cmdguard.Request{Command: "git push", BaseEnv: []string{}})
	last := d.Trace[len(d.Trace)-1]
	if last.Kind != "layer" || !strings.Contains(last.Note, "managed") || last.Source != mpath+":2" {
		t.Errorf("Explain(git push) last step %+v, want the managed layer at %s:2", last, mpath)
	}
	managed := false
	for _, s := range d.Trace {
		managed = managed || strings.HasPrefix(s.Kind, "managed ")
	}
	if !managed {
		t.Errorf("Explain(git push) trace has no managed step: %+v", d.Trace)
	}
}

// TestNoManagedNoLayer: with no managed file, decisions carry no layer
// (the JSON of check stays as it was).
func TestNoManagedNoLayer(t *testing.T) {
	t.Setenv(cmdguard.ManagedEnv, "")
	g, err := cmdguard.Open(project(t, testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	if d := checkIn(t, g, "git status"); d.Layer != "" || d.Verdict != cmdguard.Allow {
		t.Errorf("no managed file: %s layer %q", d.Verdict, d.Layer)
	}
}

// TestLintWarnsManagedRating: a project rating of a rule the managed
// layer rates is a warning that names both.
func TestLintWarnsManagedRating(t *testing.T) {
	mpath := managedFile(t, "version: 1\nrules:\n  path.outside_root: deny\n")
	root := project(t, testPolicy+"rules:\n  path.outside_root: allow\n  env.unknown: allow\n")
	diags, err := cmdguard.Lint(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range diags {
		if strings.Contains(d.Message, "managed policy") {
			n++
			if d.Severity != "warning" || d.Line != 7 || !strings.Contains(d.Message, "path.outside_root") || !strings.Contains(d.Message, mpath+":3") {
				t.Errorf("lint: %v; want a warning at line 7 naming path.outside_root and %s:3", d, mpath)
			}
		}
	}
	if n != 1 {
		t.Errorf("lint: %d managed warnings in %v, want 1", n, diags)
	}
}
