package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

const sandboxAbout = `sandbox selftest runs each promise of the sandbox on this machine, in a
throwaway project under the system's temporary directory: a hidden file
unreadable, a write outside the writable places refused, a protected file
unchanged, the network off, no process left after the end (and, on
macOS, a Unix socket outside the run unreachable). Each probe first does
its damage without the sandbox, so that a row cannot hold for nothing;
then under the sandbox, which must stop it. It prints a table of what
held.
A pass is kept in the user's state directory with the OS and cmdguard
versions; a failure takes an earlier pass back. On macOS a policy with
sandbox required: true refuses to run until the selftest has passed there
for this macOS and this cmdguard. See docs/sandbox-macos.md.
Exit codes: 0 every promise held, 1 one did not, 3 error.`

// selftestTimeout bounds the whole selftest.
const selftestTimeout = 2 * time.Minute

// selftestJSON is sandbox selftest --format json.
type selftestJSON struct {
	*exec.SelfTestReport
	Record      string `json:"record,omitempty"` // where the pass is kept
	RecordError string `json:"record_error,omitempty"`
}

func (c *cli) sandbox(args []string) int {
	fs := c.flagSet("sandbox")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	usage := func() int {
		return c.errorf("usage: cmdguard sandbox selftest [--format text|json] (cmdguard sandbox --help)")
	}
	if len(args) == 0 {
		return usage()
	}
	// The flags may stand before or after the word selftest.
	sub := false
	if args[0] == "selftest" {
		args, sub = args[1:], true
	}
	if wantsJSON(args) {
		c.jsonErr = func(msg string) { writeJSON(c.stdout, map[string]any{"passed": false, "rows": []any{}, "error": msg}) }
	}
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("sandbox selftest: %v", err)
	}
	if *format != "text" && *format != "json" {
		return c.errorf("sandbox selftest: --format must be text or json, not %q", *format)
	}
	rest := fs.Args()
	if !sub && len(rest) > 0 && rest[0] == "selftest" {
		rest, sub = rest[1:], true
	}
	if !sub {
		return usage()
	}
	if len(rest) > 0 {
		return c.errorf("sandbox selftest: unexpected arguments %q", rest)
	}
	ctx, cancel := context.WithTimeout(context.Background(), selftestTimeout)
	defer cancel()
	rep, err := exec.SelfTest(ctx, exec.SelfTestOptions{})
	if err != nil {
		return c.errorf("sandbox selftest: %v", err)
	}
	out := selftestJSON{SelfTestReport: rep}
	if out.Record, err = exec.RecordSelfTest(rep); err != nil {
		out.RecordError = err.Error()
	}
	if *format == "json" {
		writeJSON(c.stdout, out)
	} else {
		writeSelftest(c, out)
	}
	if out.RecordError != "" {
		fmt.Fprintf(c.stderr, "cmdguard: sandbox selftest: %s\n", out.RecordError)
	}
	if !rep.Passed {
		return 1
	}
	return 0
}

// writeSelftest writes the selftest's table.
func writeSelftest(c *cli, out selftestJSON) {
	rep := out.SelfTestReport
	fmt.Fprintf(c.stdout, "cmdguard sandbox selftest: %s, %s, cmdguard %s\n", rep.OS, rep.OSVersion, rep.Version)
	fmt.Fprintf(c.stdout, "sandbox layers: %s\n\n", strings.Join(rep.Layers, " "))
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROBE\tLAYER\tRESULT\tPROMISE")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Layer, r.Status, r.Promise)
		if r.Detail != "" && r.Status != exec.RowNotPromised {
			fmt.Fprintf(tw, "\t\t\t  %s\n", r.Detail)
		}
	}
	tw.Flush()
	fmt.Fprintln(c.stdout)
	switch {
	case rep.Omitted != "":
		fmt.Fprintf(c.stdout, "NOT PASSED: the test hook left the %s layer out\n", rep.Omitted)
	case rep.Passed && out.Record != "" && out.RecordError == "":
		fmt.Fprintf(c.stdout, "passed: every promise held (kept in %s)\n", out.Record)
	case rep.Passed:
		fmt.Fprintln(c.stdout, "passed: every promise held (not kept: see the error)")
	default:
		fmt.Fprintln(c.stdout, "NOT PASSED: a promise did not hold here (see above)")
	}
}
