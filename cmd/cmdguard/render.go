package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/cmdguard/cmdguard/policy"
)

// writeJSON writes v as one JSON object. The JSON shape is the stable
// contract for scripts; text output may change.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(w, "{\"decision\":\"deny\",\"error\":%q}\n", err.Error())
	}
}

// renderTrace writes the explain trace: every rule considered.
func renderTrace(w io.Writer, t policy.Trace) {
	fmt.Fprintln(w, "trace:")
	for _, s := range t {
		mark := "  "
		if s.Matched {
			mark = "✓ "
		}
		fmt.Fprintf(w, "  %s", mark)
		if s.Command >= 0 {
			fmt.Fprintf(w, "command %d ", s.Command)
		}
		fmt.Fprintf(w, "%s %s", s.Kind, s.Rule)
		if s.Prefix != "" {
			fmt.Fprintf(w, " %q", s.Prefix)
		}
		fmt.Fprintf(w, " → %s [%s]", s.Verdict, s.Source)
		if s.Note != "" {
			fmt.Fprintf(w, " (%s)", s.Note)
		}
		fmt.Fprintln(w)
	}
}
