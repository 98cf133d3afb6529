package analysis

import (
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// The analysis memo. parser.Analyze reads neither the file system nor the
// host's environment: what it makes of a command string depends only on
// the string and its Options. Options are built from a Key alone (see
// Key.options) plus the snapshot's policy (EnvSafe), and the memo
// belongs to the snapshot, whose policy and Guard root never change; so
// the same key always gives the same analysis, and a long-lived Guard (a
// server, an adapter, whose agent repeats commands) can keep it.
//
// Everything that reads the file system — path resolution, lstat, glob
// expansion, ignore matching, the snapshot's revalidation — runs at every
// check, on the remembered analysis. The remembered analysis is read only:
// each check copies what it hands out (Decision.Commands) and never writes
// through the parser's values.
const (
	// MaxSource: longer commands are analysed at every check (they
	// are rarely repeated, and their analyses are large).
	MaxSource = 4 << 10
	// MaxEntries and MaxWeight bound one generation of the memo; it
	// keeps two, so at most twice as many entries and about twice as
	// many bytes (Entry.weight estimates an entry's size).
	MaxEntries = 256
	MaxWeight  = 1 << 20
)

// Key is everything an analysis depends on besides the policy and the
// project root, which a memo never changes.
type Key struct {
	src, cwd string
	// home, pwd and cdpath are the values of HOME, PWD and CDPATH in the
	// trusted base environment (the last entry wins, as in a map), and
	// has the bits of those present. PWD defaults to cwd.
	home, pwd, cdpath string
	has               uint8
	// added encodes the request's added variables, in order, each as its
	// length, ':' and the entry (unambiguous whatever the entries hold).
	added string
}

const (
	hasHome uint8 = 1 << iota
	hasPWD
	hasCDPATH
)

// NewKey builds the key of a check of src in cwd with the trusted base
// environment base and the request's added variables.
func NewKey(src, cwd string, base, added []string) Key {
	k := Key{src: src, cwd: cwd}
	for _, kv := range base {
		// HOME and PWD resolve ~, $HOME and $PWD; CDPATH changes where a
		// relative cd goes.
		k2, v, ok := strings.Cut(kv, "=")
		switch {
		case !ok:
		case k2 == "HOME":
			k.home, k.has = v, k.has|hasHome
		case k2 == "PWD":
			k.pwd, k.has = v, k.has|hasPWD
		case k2 == "CDPATH":
			k.cdpath, k.has = v, k.has|hasCDPATH
		}
	}
	if k.has&hasPWD == 0 {
		k.pwd, k.has = cwd, k.has|hasPWD
	}
	if len(added) > 0 {
		var b strings.Builder
		for _, kv := range added {
			b.WriteString(strconv.Itoa(len(kv)))
			b.WriteByte(':')
			b.WriteString(kv)
		}
		k.added = b.String()
	}
	return k
}

// options returns the parser options of k; added must be the slice k was
// built from.
func (k *Key) options(added, envSafe []string) parser.Options {
	env := make(map[string]string, 3)
	if k.has&hasHome != 0 {
		env["HOME"] = k.home
	}
	if k.has&hasPWD != 0 {
		env["PWD"] = k.pwd
	}
	if k.has&hasCDPATH != 0 {
		env["CDPATH"] = k.cdpath
	}
	return parser.Options{Cwd: k.cwd, Env: env, AddEnv: added, EnvSafe: envSafe}
}

// Entry is one remembered analysis and what the policy input takes
// from it that no file decides. It is never modified once built.
type Entry struct {
	key Key
	a   *parser.Analysis
	// findings are the analysis' findings and WriteThenRun's (and, under
	// a strict policy, Destructive's and DataLoss's), converted.
	findings []policy.Finding
	// cmds are the policy commands without their Files, which each check
	// fills; copied into every input (see newInput).
	cmds []policy.Command
	// prep holds the policy's Rego terms of cmds, made when the entry is
	// first reused (a string checked once never pays for them).
	prep atomic.Pointer[policy.Prepared]
	// sizes of the lists of all commands together, for newInput.
	strs, dyn, reds, files int
	weight                 int
}

// Analyse runs the parser and builds the entry of key k for policy p.
func Analyse(k *Key, added []string, p *policy.Policy, root string) *Entry {
	a := parser.Analyze(k.src, k.options(added, p.EnvSafe()))
	e := &Entry{key: *k, a: a}
	wtr := parser.WriteThenRun(a.Commands, root)
	if p.Strict() {
		// What no one wants an agent to run unasked (issue 30): under a
		// strict policy (the embedded default, or strict: true), the
		// destruction of /, the home directory, the project or anything
		// outside it is denied, and git commands that throw work away say
		// what is lost. A non-strict policy's own rules decide them.
		wtr = append(wtr, parser.Destructive(a.Commands, root, k.home)...)
		wtr = append(wtr, parser.DataLoss(a.Commands)...)
	}
	if n := len(a.Findings) + len(wtr); n > 0 {
		e.findings = make([]policy.Finding, 0, n)
	}
	for _, list := range [2][]parser.Finding{a.Findings, wtr} {
		for _, f := range list {
			pf := policy.Finding{Rule: f.Rule, Message: f.Message, Pos: pos(f.Pos)}
			if f.Var != "" {
				pf.Source = "env:" + f.Var // the request's variable, not a place in the command
			}
			e.findings = append(e.findings, pf)
			e.weight += 96 + len(f.Message)
		}
	}
	e.cmds = make([]policy.Command, len(a.Commands))
	words := 0
	for i := range a.Commands {
		words += len(a.Commands[i].Argv)
	}
	dyn := make([]bool, words) // every command's Dynamic, in one array
	for i := range a.Commands {
		c := &a.Commands[i]
		e.cmds[i] = commandTemplate(c, dyn[:len(c.Argv):len(c.Argv)])
		dyn = dyn[len(c.Argv):]
		t := &e.cmds[i]
		e.strs += len(t.Argv) + len(t.Wrappers)
		if !sameSlice(t.Argv, t.MatchArgv) {
			e.strs += len(t.MatchArgv)
		}
		e.dyn += len(t.Dynamic)
		e.reds += len(t.Redirects)
		e.files += len(c.Files)
		e.weight += 2*commandSize + 80*len(c.Argv) + 96*len(c.Redirects) + 160*len(c.Files) + 96*len(c.Unknown) +
			64*(len(c.OptionHits)+len(c.UnknownOptions)+len(c.Assigns)) + 32*len(c.Wrappers)
		for _, w := range c.Argv {
			e.weight += len(w.Value) + len(w.Pattern)
		}
	}
	e.weight += 512 + 2*len(k.src) + len(k.cwd) + len(k.added)
	if p.HasRego() {
		e.weight *= 3 // the prepared terms: copies of the lists, and their terms
	}
	return e
}

// Input returns the policy input of the analysis of k for policy p and
// project root, from the memo when it holds it (a nil memo holds
// nothing), and the analysed commands, which the caller reads only: one
// per input command, for the file checks that fill its Files. added must
// be the slice k was built from. The memo must be used with p and root
// alone.
func (m *Memo) Input(k *Key, added []string, p *policy.Policy, root string) (*policy.Input, []parser.Command) {
	h := m.hash(k)
	e, again := m.get(k, h)
	reused := e != nil
	if !reused {
		e = Analyse(k, added, p, root)
		if again {
			m.put(h, e)
		}
	}
	in := e.newInput(!reused && !again) // an entry nobody else sees is used up
	if reused && p.HasRego() {
		in.Prepared = e.prepared(p)
	}
	return in, e.a.Commands
}

// Weight is the estimated size of e in bytes, which bounds the memo.
func (e *Entry) Weight() int { return e.weight }

// prepared returns the Rego terms of e's commands for p, the policy e
// was made with (nil without Rego), preparing them at the first call.
func (e *Entry) prepared(p *policy.Policy) *policy.Prepared {
	if pr := e.prep.Load(); pr != nil {
		return pr
	}
	e.prep.CompareAndSwap(nil, p.Prepare(e.cmds))
	return e.prep.Load()
}

// commandSize is about the size of a parser.Command and of a policy.Command.
const commandSize = 288

// commandTemplate converts the parts of c that no file decides; dyn
// (len(c.Argv) long) becomes its Dynamic.
func commandTemplate(c *parser.Command, dyn []bool) policy.Command {
	// Lists are empty rather than nil, so that Rego and JSON see [] (count
	// of null is a Rego type error).
	out := policy.Command{
		Argv:        nonNil(c.Args),
		MatchArgv:   nonNil(c.MatchArgv),
		Pos:         pos(c.Pos),
		Wrappers:    nonNil(c.Wrappers),
		Cwd:         c.Cwd,
		Redirects:   []policy.Redirect{},
		Dynamic:     dyn,
		Runs:        parser.ProjectCodeRun(c),
		Fetches:     parser.FetchesPackages(c),
		Transparent: c.Transparent,
	}
	for i, w := range c.Argv {
		// A glob that may match a name starting with "-" could be any
		// option (rm * with a file named -rf runs rm -rf): for the
		// rules it is as unknown as $X.
		out.Dynamic[i] = w.Dynamic || w.Glob && w.Pattern != "" && strings.IndexByte("*?[", w.Pattern[0]) >= 0
	}
	if len(c.Redirects) > 0 {
		out.Redirects = make([]policy.Redirect, len(c.Redirects))
		for i, r := range c.Redirects {
			out.Redirects[i] = policy.Redirect{Op: r.Op, Target: r.Target.Value, Write: r.Write, Pos: pos(r.Pos)}
		}
	}
	for _, h := range c.OptionHits {
		out.OptionHits = append(out.OptionHits, policy.OptionHit{Index: h.Index, What: h.What, Why: h.Why})
	}
	for _, o := range c.UnknownOptions {
		out.UnknownOptions = append(out.UnknownOptions, policy.Option{Value: o.Value, Pos: pos(o.Pos)})
	}
	// Arguments the gate cannot see follow the command's words when the
	// wrapper right around it appends them: xargs and parallel (stdin),
	// find -exec/-ok ({}).
	if n := len(c.Wrappers); n > 0 && len(c.Unknown) > 0 {
		w := c.Wrappers[n-1]
		out.Open = w == "xargs" || w == "parallel" || strings.HasPrefix(w, "find -")
	}
	return out
}

// sameSlice reports whether a and b are the same words in the same array
// (MatchArgv is usually Argv itself).
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Memo remembers analyses, bounded: two generations of at most
// MaxEntries entries and MaxWeight estimated bytes each. A hit in the
// old generation moves the entry to the new one; when the new one is
// full it becomes the old one and the old one is dropped. A string is
// remembered at its second check: seen holds the hashes of keys checked
// once (a string never repeated costs no memory the garbage collector
// must scan, and evicts nothing). It is safe for concurrent use; a nil
// memo remembers nothing.
//
// Entries are found by the hash of their key (one hash per check) and
// used only when their key is the check's key: two keys with the same
// hash share a slot, the later one replacing the earlier.
type Memo struct {
	mu       sync.Mutex
	cur, old map[uint64]*Entry
	weight   int // of cur
	seed     maphash.Seed
	seen     [seenSlots]uint64 // by hash modulo seenSlots; a collision only forgets or admits early
}

// seenSlots is the number of keys seen once that the memo recalls.
const seenSlots = 4096

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{cur: map[uint64]*Entry{}, seed: maphash.MakeSeed()} }

// get returns the entry of k, or nil and whether k was seen before: then
// its analysis is worth keeping (put). h is k's hash (Memo.hash).
func (m *Memo) get(k *Key, h uint64) (e *Entry, again bool) {
	if m == nil || len(k.src) > MaxSource {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.cur[h]; e != nil && e.key == *k {
		return e, true
	}
	if e := m.old[h]; e != nil && e.key == *k {
		delete(m.old, h)
		m.add(h, e)
		return e, true
	}
	slot := &m.seen[h%seenSlots]
	if *slot == h {
		return nil, true
	}
	*slot = h
	return nil, false
}

// hash hashes every field of k (0 for a nil memo).
func (m *Memo) hash(k *Key) uint64 {
	if m == nil || len(k.src) > MaxSource {
		return 0
	}
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, s := range [...]string{k.src, k.cwd, k.home, k.pwd, k.cdpath, k.added} {
		h.WriteString(s)
		h.WriteByte(0)
	}
	h.WriteByte(k.has)
	return h.Sum64()
}

// put remembers e as the analysis of its key, whose hash is h.
func (m *Memo) put(h uint64, e *Entry) {
	if m == nil || len(e.key.src) > MaxSource || e.weight > MaxWeight {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := m.cur[h]; old == nil || old.key != e.key {
		m.add(h, e)
	}
}

// add inserts into the new generation, starting a new one when it is
// full. Caller holds m.mu.
func (m *Memo) add(h uint64, e *Entry) {
	if len(m.cur) >= MaxEntries || m.weight+e.weight > MaxWeight {
		m.old, m.cur, m.weight = m.cur, make(map[uint64]*Entry, len(m.cur)), 0
	}
	if old := m.cur[h]; old != nil {
		m.weight -= old.weight // replaced: another key with the same hash
	}
	m.cur[h] = e
	m.weight += e.weight
}

// Peek returns the entry of k without counting a use, for tests.
func (m *Memo) Peek(k *Key) *Entry {
	h := m.hash(k)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, gen := range []map[uint64]*Entry{m.cur, m.old} {
		if e := gen[h]; e != nil && e.key == *k {
			return e
		}
	}
	return nil
}

// Len returns the number of entries and their estimated weight, for tests.
func (m *Memo) Len() (n, weight int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.old {
		weight += e.weight
	}
	return len(m.cur) + len(m.old), m.weight + weight
}

func pos(p parser.Pos) policy.Pos { return policy.Pos{Line: p.Line, Col: p.Col} }

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
