package policy

// The option guard: options that turn a read-only command into one that
// writes, deletes or runs another program (find -delete, rg --pre, sort
// -o, go test -exec, a sed or awk program that runs or touches files, git
// config writes, …). Prefix rules cannot say "find, unless -delete
// appears anywhere", so the parser finds them, in every spelling, and
// reports them as Command.OptionHits; the policy makes each a
// policy.dangerous_option reason (ask by default), for every policy,
// unless the prefix rule that matched already names it (allow: [find .
// -delete]).

// OptionHit is one guarded option of a command, found by the parser.
type OptionHit struct {
	Index int    // into Command.MatchArgv
	What  string // the guarded prefix and the word: "sort --out=f"
	Why   string // what it does
}

// guardHits returns the hits of c that a prefix of depth words does not
// name.
func guardHits(c *Command, depth int, hits []OptionHit) []OptionHit {
	for _, h := range c.OptionHits {
		if h.Index >= depth {
			hits = append(hits, h)
		}
	}
	return hits
}
