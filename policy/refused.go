package policy

import (
	"regexp"
)

// undefinedFunction matches OPA's compile error for a call of a builtin
// that the capabilities leave out.
var undefinedFunction = regexp.MustCompile(`undefined function ([A-Za-z0-9_.]+)`)

// explainRefused rewrites OPA's "undefined function http.send" for the
// builtins cmdguard refuses (see refusedBuiltin), so that a policy author
// learns that the builtin exists but is refused, and why, rather than
// hunting for a typo.
func explainRefused(errs Errors) Errors {
	for _, e := range errs {
		m := undefinedFunction.FindStringSubmatchIndex(e.Msg)
		if m == nil {
			continue
		}
		name := e.Msg[m[2]:m[3]]
		if !refusedBuiltin(name) {
			continue
		}
		why := "a repository's policy runs on every check and must not reach the network"
		switch {
		case name == "opa.runtime":
			why = "a repository's policy runs on every check and must not read the host's environment or configuration"
		case name == "json.match_schema" || name == "json.verify_schema":
			why = "a schema may reference remote documents, and a repository's policy runs on every check and must not reach the network"
		}
		e.Msg = e.Msg[:m[0]] + name + " is refused by cmdguard: " + why + e.Msg[m[1]:]
	}
	return errs
}
