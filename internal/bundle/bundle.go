package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	opabundle "github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/download"
	"github.com/open-policy-agent/opa/v1/logging"
	"github.com/open-policy-agent/opa/v1/plugins"
	"github.com/open-policy-agent/opa/v1/plugins/rest"
	"go.yaml.in/yaml/v3"

	"github.com/cmdguard/cmdguard/policy"
)

// Config is the bundle: section of a managed policy file.
type Config struct {
	URL       string `yaml:"url"`
	PublicKey string `yaml:"public_key"` // PEM file, relative to the managed file
	KeyID     string `yaml:"key_id"`     // "default" when empty: opa build's --verification-key-id default
	Algorithm string `yaml:"algorithm"`  // RS256 when empty
	Scope     string `yaml:"scope"`
	Poll      string `yaml:"poll"`    // 60s when empty
	Timeout   string `yaml:"timeout"` // one fetch; 5s when empty
	// Cache is the directory the last good bundle is kept in; by default
	// a directory per URL under $XDG_STATE_HOME/cmdguard/bundles.
	Cache string `yaml:"cache"`
}

// Limits.
const (
	defaultPoll    = 60 * time.Second
	defaultTimeout = 5 * time.Second
)

// maxBundleBytes bounds a bundle's download and each file in it; a
// variable for the tests.
var maxBundleBytes int64 = 32 << 20

// ReadConfig returns the bundle: section of the managed file at path
// (data is its content), nil when it has none. Relative paths resolve
// against the file's directory. An error means the section is unusable:
// the caller fails closed.
func ReadConfig(path string, data []byte) (*Config, error) {
	var doc struct {
		Bundle yaml.Node `yaml:"bundle"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: bundle: %w", path, err)
	}
	if doc.Bundle.Kind == 0 {
		return nil, nil
	}
	// Strictly: a misspelt key (pol: 1s) is an error, not a default.
	text, err := yaml.Marshal(&doc.Bundle)
	if err != nil {
		return nil, fmt.Errorf("%s: bundle: %w", path, err)
	}
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("%s:%d: bundle: %w", path, doc.Bundle.Line, err)
	}
	u, err := url.Parse(c.URL)
	if c.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: bundle: url: want an http(s) URL, have %q", path, c.URL)
	}
	if c.PublicKey == "" {
		return nil, fmt.Errorf("%s: bundle: public_key: a bundle must be signed, and the key that verifies it is required", path)
	}
	for _, d := range []struct{ name, v string }{{"poll", c.Poll}, {"timeout", c.Timeout}} {
		if d.v == "" {
			continue
		}
		if v, err := time.ParseDuration(d.v); err != nil || v <= 0 {
			return nil, fmt.Errorf("%s: bundle: %s: want a positive duration (60s), have %q", path, d.name, d.v)
		}
	}
	dir := filepath.Dir(path)
	if !filepath.IsAbs(c.PublicKey) {
		c.PublicKey = filepath.Join(dir, c.PublicKey)
	}
	if c.Cache != "" && !filepath.IsAbs(c.Cache) {
		c.Cache = filepath.Join(dir, c.Cache)
	}
	return c, nil
}

func (c *Config) poll() time.Duration    { return dur(c.Poll, defaultPoll) }
func (c *Config) timeout() time.Duration { return dur(c.Timeout, defaultTimeout) }

func dur(s string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(s); err == nil && v > 0 {
		return v
	}
	return def
}

// StateDir returns cmdguard's state directory: $XDG_STATE_HOME/cmdguard,
// else ~/.local/state/cmdguard.
func StateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "cmdguard")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "cmdguard-state")
	}
	return filepath.Join(home, ".local", "state", "cmdguard")
}

// Active is an activated bundle.
type Active struct {
	Revision string
	ETag     string
	Fetched  time.Time // when it was downloaded
	Policy   *policy.Policy
	// Prefix begins the source of every rule of Policy (its generated
	// policy document and its modules); Label is what it stands for in a
	// decision ("bundle REVISION").
	Prefix, Label string
}

// Source rewrites a source of the bundle's policy into the label, the
// revision and the module path ("bundle r2:/cmdguard/deny.rego:4").
func (a *Active) Source(src string) string {
	if a == nil || !strings.HasPrefix(src, a.Prefix) {
		return src
	}
	return a.Label + ":/" + strings.TrimPrefix(src, a.Prefix)
}

// Status is a Manager's state, for cmdguard status.
type Status struct {
	URL         string    `json:"url"`
	Revision    string    `json:"revision,omitempty"` // the active bundle's, "" when none
	Fetched     time.Time `json:"fetched,omitzero"`   // when the active bundle was downloaded
	LastAttempt time.Time `json:"last_attempt,omitzero"`
	LastOK      time.Time `json:"last_ok,omitzero"`     // the last fetch that reached the server
	LastError   string    `json:"last_error,omitempty"` // why the last fetch failed (server down)
	Refused     string    `json:"refused,omitempty"`    // why the last bundle received was refused
	RefusedAt   time.Time `json:"refused_at,omitzero"`
}

// state is what the cache directory keeps beside the bundle.
type state struct {
	Status
	ETag string `json:"etag,omitempty"`
}

// Manager keeps one bundle current. Its methods are safe for concurrent
// use.
type Manager struct {
	cfg    Config
	key    string // PEM
	dir    string
	opts   []policy.LoadOption
	client rest.Client // OPA's, for the URL's service
	path   string      // the bundle's path (and query) on it
	now    func() time.Time

	mu     sync.Mutex // guards the fields below
	loaded bool
	active *Active
	st     state
	// fetching is held while a fetch is under way; other checks use the
	// active bundle meanwhile.
	fetching sync.Mutex
}

// New returns the Manager of cfg. It reads the public key now: a missing
// key is an error (the caller fails closed). opts are the policy load
// options of the bundle's policy.
func New(cfg Config, opts ...policy.LoadOption) (*Manager, error) {
	key, err := os.ReadFile(cfg.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("bundle: public_key: %w", err)
	}
	dir := cfg.Cache
	if dir == "" {
		h := sha256.Sum256([]byte(cfg.URL))
		dir = filepath.Join(StateDir(), "bundles", hex.EncodeToString(h[:8]))
	}
	client, path, err := restClient(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("bundle: url: %w", err)
	}
	return &Manager{cfg: cfg, key: string(key), dir: dir, opts: opts,
		client: client, path: path, now: time.Now}, nil
}

// restClient returns OPA's REST client for the service (scheme, host,
// port) of rawURL, and the path of the bundle on it. It logs nothing (the
// library never prints), and its HTTP client refuses a response body
// larger than maxBundleBytes.
func restClient(rawURL string) (rest.Client, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rest.Client{}, "", err
	}
	service := url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}
	p := u.EscapedPath()
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	conf, err := json.Marshal(map[string]any{
		"url":         service.String(),
		"credentials": map[string]any{"plugin": limitPlugin},
	})
	if err != nil {
		return rest.Client{}, "", err
	}
	c, err := rest.New(conf, nil,
		rest.Logger(logging.NewNoOpLogger()),
		rest.AuthPluginLookup(func(name string) rest.HTTPAuthPlugin {
			if name == limitPlugin {
				return limitAuth{}
			}
			return nil
		}))
	return c, p, err
}

// limitPlugin names limitAuth in the REST client's config.
const limitPlugin = "cmdguard-size-limit"

// errTooLarge is a response body past maxBundleBytes.
var errTooLarge = errors.New("the response is too large")

// limitAuth is an OPA HTTP auth plugin that adds no credentials: its
// client is OPA's default one, with a transport that ends a response
// body at maxBundleBytes.
type limitAuth struct{}

func (limitAuth) NewClient(c rest.Config) (*http.Client, error) {
	t, err := rest.DefaultTLSConfig(c)
	if err != nil {
		return nil, err
	}
	hc := rest.DefaultRoundTripperClient(t, *c.ResponseHeaderTimeoutSeconds)
	hc.Transport = limitTransport{hc.Transport}
	return hc, nil
}

func (limitAuth) Prepare(*http.Request) error { return nil }

type limitTransport struct{ rt http.RoundTripper }

func (l limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(req)
	if err == nil && resp.Body != nil {
		resp.Body = &limitBody{ReadCloser: resp.Body, left: maxBundleBytes}
	}
	return resp, err
}

// limitBody fails a read past its limit with errTooLarge.
type limitBody struct {
	io.ReadCloser
	left int64
}

func (b *limitBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more says whether the body ends here.
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// Config returns the Manager's configuration.
func (m *Manager) Config() Config { return m.cfg }

// Dir returns the directory the last good bundle is kept in.
func (m *Manager) Dir() string { return m.dir }

// Status returns the Manager's state.
func (m *Manager) Status() Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.loadLocked()
	s := m.st.Status
	s.URL = m.cfg.URL
	if m.active != nil {
		s.Revision, s.Fetched = m.active.Revision, m.active.Fetched
	} else {
		s.Revision, s.Fetched = "", time.Time{}
	}
	return s
}

// Current returns the active bundle, nil when none was ever activated
// (or the one kept on disk no longer verifies): the caller then applies
// its floor. When a poll is due (the last attempt, by any process using
// the same cache, is older than poll) it fetches first, within the
// configured timeout; a check that comes while another fetches does not
// wait for it.
func (m *Manager) Current(ctx context.Context) *Active {
	m.mu.Lock()
	m.loadLocked()
	due := m.now().Sub(m.st.LastAttempt) >= m.cfg.poll() || m.st.LastAttempt.After(m.now())
	m.mu.Unlock()
	if due && m.fetching.TryLock() {
		m.refresh(ctx)
		m.fetching.Unlock()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.active
}

// Refresh fetches the bundle now, whether a poll is due or not, and
// returns the error of the fetch or of the bundle's verification (nil
// when a bundle was activated or the server said it has not changed).
func (m *Manager) Refresh(ctx context.Context) error {
	m.mu.Lock()
	m.loadLocked()
	m.mu.Unlock()
	m.fetching.Lock()
	defer m.fetching.Unlock()
	return m.refresh(ctx)
}

// loadLocked reads the cache directory once: the state and the last
// good bundle, verified again.
func (m *Manager) loadLocked() {
	if m.loaded {
		return
	}
	m.loaded = true
	if data, err := os.ReadFile(filepath.Join(m.dir, "state.json")); err == nil {
		json.Unmarshal(data, &m.st)
	}
	raw, err := os.ReadFile(filepath.Join(m.dir, "bundle.tar.gz"))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			m.st.LastError = "the kept bundle: " + err.Error()
		}
		m.st.ETag = ""
		return
	}
	a, err := m.activate(raw)
	if err != nil {
		// The kept bundle no longer verifies (another key, a changed
		// file): it is not used, and the next fetch is unconditional.
		m.st.Refused, m.st.RefusedAt, m.st.ETag = "the kept bundle: "+err.Error(), m.now(), ""
		m.st.LastAttempt = time.Time{}
		return
	}
	a.ETag, a.Fetched = m.st.ETag, m.st.Fetched
	m.active = a
}

// refresh fetches once; m.fetching is held.
func (m *Manager) refresh(ctx context.Context) error {
	m.mu.Lock()
	etag := ""
	if m.active != nil {
		etag = m.active.ETag
	}
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, m.cfg.timeout())
	defer cancel()
	u, err := m.download(ctx, etag)
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.st.LastAttempt = now
	defer m.saveLocked()
	var refused *refusal
	switch {
	case errors.As(err, &refused):
		// The server answered with a bundle, and OPA's reader refused it.
		m.st.LastError, m.st.LastOK = "", now
		m.st.Refused, m.st.RefusedAt = refused.Error(), now
		return refused
	case err != nil:
		m.st.LastError = err.Error()
		return err
	}
	m.st.LastError, m.st.LastOK = "", now
	if u.Bundle == nil {
		if m.active == nil {
			// Nothing to keep: 304 Not Modified to a request without
			// If-None-Match, or an empty 200.
			err := fmt.Errorf("fetch %s: the server sent no bundle", m.cfg.URL)
			m.st.LastError = err.Error()
			return err
		}
		return nil // 304 Not Modified: the active bundle stays
	}
	var raw []byte
	if u.Raw != nil {
		raw, err = io.ReadAll(u.Raw)
	}
	if err != nil || len(raw) == 0 {
		err := fmt.Errorf("fetch %s: the downloaded bundle's bytes are missing", m.cfg.URL)
		m.st.LastError = err.Error()
		return err
	}
	a, err := m.activateBundle(*u.Bundle)
	if err != nil {
		m.st.Refused, m.st.RefusedAt = err.Error(), now
		return err
	}
	if err := m.keep(raw); err != nil {
		// Active in this process, but not kept: say so.
		m.st.LastError = "keeping the bundle: " + err.Error()
	}
	a.ETag, a.Fetched = u.ETag, now
	m.active = a
	m.st.ETag, m.st.Revision, m.st.Fetched = u.ETag, a.Revision, now
	m.st.Refused, m.st.RefusedAt = "", time.Time{}
	return nil
}

// refusal is a bundle the server sent that OPA's reader refused (a bad
// signature, a changed file, not a bundle).
type refusal struct{ err error }

func (r *refusal) Error() string { return "refused: " + r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// download runs OPA's bundle downloader once, synchronously: its request
// (If-None-Match: etag, when not empty), its handling of 200 and 304, and
// its bundle reader with the Manager's verification config. The Update
// has a nil Bundle for 304 Not Modified. A server that cannot be reached
// or answers with an error status is an ordinary error; a bundle that
// OPA's reader refuses is a *refusal.
func (m *Manager) download(ctx context.Context, etag string) (download.Update, error) {
	// One Downloader per download: its state (the ETag it sends, its
	// client's headers) is set from the Manager's, which is kept on disk
	// for every process; and a download that outlives ctx (its goroutine
	// ends when the request is cancelled) touches nothing shared.
	trig := plugins.TriggerManual
	dcfg := download.Config{Trigger: &trig}
	if err := dcfg.ValidateAndInjectDefaults(); err != nil {
		return download.Update{}, fmt.Errorf("fetch %s: %w", m.cfg.URL, err)
	}
	got := make(chan download.Update, 1)
	d := download.New(dcfg, m.client, m.path).
		WithCallback(func(_ context.Context, u download.Update) error {
			got <- u
			return nil
		}).
		WithBundleVerificationConfig(m.verification()).
		WithBundleParserOpts(ast.ParserOptions{RegoVersion: ast.RegoV1}).
		WithSizeLimitBytes(maxBundleBytes).
		// Persistence keeps the downloaded bytes (Update.Raw): the last
		// good bundle is kept on disk as it was signed.
		WithBundlePersistence(true)
	d.SetCache(etag)
	err := d.Trigger(ctx)
	var u download.Update
	select {
	case u = <-got:
	default:
		// Trigger returned before the downloader called back: ctx ended.
		if err == nil {
			err = errors.New("the download ended without an update")
		}
		return download.Update{}, fmt.Errorf("fetch %s: %w", m.cfg.URL, err)
	}
	if u.Error == nil {
		if u.Bundle != nil && len(u.Bundle.Signatures.Signatures) == 0 {
			return download.Update{}, &refusal{errors.New("the bundle is not signed")}
		}
		return u, nil
	}
	var he download.HTTPError
	var ue *url.Error
	switch {
	case errors.As(u.Error, &he):
		return download.Update{}, fmt.Errorf("fetch %s: %d %s", m.cfg.URL, he.StatusCode, http.StatusText(he.StatusCode))
	case errors.As(u.Error, &ue), ctx.Err() != nil:
		// Not reached, or the timeout passed while downloading.
		return download.Update{}, fmt.Errorf("fetch %s: %w", m.cfg.URL, u.Error)
	case errors.Is(u.Error, errTooLarge):
		return download.Update{}, &refusal{fmt.Errorf("the bundle is larger than %d bytes", maxBundleBytes)}
	}
	return download.Update{}, &refusal{u.Error}
}

// verification returns the verification config of the Manager's key.
// The key id is left to the bundle's JWT (its kid), so that a bundle
// signed under another id finds no key; the config is never nil (a nil
// config accepts an unsigned bundle).
func (m *Manager) verification() *opabundle.VerificationConfig {
	kid := m.cfg.KeyID
	if kid == "" {
		kid = "default"
	}
	alg := m.cfg.Algorithm
	if alg == "" {
		alg = "RS256"
	}
	keys := map[string]*opabundle.KeyConfig{kid: {Key: m.key, Algorithm: alg, Scope: m.cfg.Scope}}
	return opabundle.NewVerificationConfig(keys, "", m.cfg.Scope, nil)
}

// Verify reads raw with OPA's bundle reader, verifying its signature
// against the Manager's key, and returns the bundle. It reads back the
// kept bundle; a download is read and verified the same way by OPA's
// downloader.
func (m *Manager) Verify(raw []byte) (opabundle.Bundle, error) {
	b, err := opabundle.NewReader(bytes.NewReader(raw)).
		WithBundleVerificationConfig(m.verification()).
		WithRegoVersion(ast.RegoV1).
		WithSizeLimitBytes(maxBundleBytes).
		Read()
	if err != nil {
		return opabundle.Bundle{}, fmt.Errorf("refused: %w", err)
	}
	if len(b.Signatures.Signatures) == 0 {
		return opabundle.Bundle{}, errors.New("refused: the bundle is not signed")
	}
	return b, nil
}

// activate verifies raw and compiles its policy.
func (m *Manager) activate(raw []byte) (*Active, error) {
	b, err := m.Verify(raw)
	if err != nil {
		return nil, err
	}
	return m.activateBundle(b)
}

// activateBundle compiles the policy of b, a bundle OPA's reader
// verified.
func (m *Manager) activateBundle(b opabundle.Bundle) (*Active, error) {
	if b.Type() != opabundle.SnapshotBundleType {
		return nil, errors.New("refused: a delta bundle; cmdguard activates whole bundles only")
	}
	if len(b.WasmModules) > 0 || len(b.PlanModules) > 0 || len(b.Wasm) > 0 {
		return nil, errors.New("refused: the bundle holds Wasm or plan modules; cmdguard evaluates Rego only")
	}
	doc, err := policyDoc(b.Data)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "cmdguard-bundle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var mods []string
	for _, mf := range b.Modules {
		rel := strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(mf.Path)), "/")
		if strings.HasSuffix(rel, "_test.rego") {
			continue
		}
		if !strings.HasSuffix(rel, ".rego") || rel == "" {
			return nil, fmt.Errorf("refused: module %q does not end in .rego", mf.Path)
		}
		if strings.ContainsAny(rel, "*?[\\") {
			// The policy's rego: list holds globs.
			return nil, fmt.Errorf("refused: module path %q holds a glob character", mf.Path)
		}
		p := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, mf.Raw, 0o600); err != nil {
			return nil, err
		}
		mods = append(mods, filepath.FromSlash(rel))
	}
	slices.Sort(mods)
	if len(mods) > 0 {
		doc["rego"] = mods
	}
	text, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	// The policy document is generated: its sources read
	// "bundle REV:/policy.yaml:N", its modules' "bundle REV:/PATH:N" (the
	// module's path in the bundle; none is policy.yaml, which is not
	// .rego).
	name := filepath.Join(tmp, "policy.yaml")
	p, err := policy.Parse(name, text, tmp, m.opts...)
	if err != nil {
		return nil, fmt.Errorf("refused: the bundle's policy does not compile: %s", strings.ReplaceAll(err.Error(), tmp+string(filepath.Separator), "/"))
	}
	rev := b.Manifest.Revision
	label := "bundle " + rev
	if rev == "" {
		label = "bundle"
	}
	return &Active{Revision: rev, Policy: p, Prefix: tmp + string(filepath.Separator), Label: label}, nil
}

// policyDoc returns the policy document of a bundle's data: the object
// at data.cmdguard.policy, or a document with no rules. Any other data is
// refused: the policy could not see it.
func policyDoc(data map[string]any) (map[string]any, error) {
	doc := map[string]any{"version": 1}
	for k, v := range data {
		if k != "cmdguard" {
			return nil, fmt.Errorf("refused: the bundle's data has %q: only data.cmdguard.policy (a policy document) is read", k)
		}
		cg, ok := v.(map[string]any)
		if !ok {
			return nil, errors.New("refused: data.cmdguard is not an object")
		}
		for k, v := range cg {
			if k != "policy" {
				return nil, fmt.Errorf("refused: the bundle's data has cmdguard.%s: only data.cmdguard.policy (a policy document) is read", k)
			}
			pd, ok := v.(map[string]any)
			if !ok {
				return nil, errors.New("refused: data.cmdguard.policy is not an object")
			}
			if _, ok := pd["rego"]; ok {
				return nil, errors.New("refused: data.cmdguard.policy has rego:; a bundle's modules are its .rego files")
			}
			for k, v := range pd {
				doc[k] = v
			}
		}
	}
	return doc, nil
}

// keep writes raw as the last good bundle.
func (m *Manager) keep(raw []byte) error {
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return err
	}
	return writeFile(filepath.Join(m.dir, "bundle.tar.gz"), raw)
}

func (m *Manager) saveLocked() {
	data, err := json.MarshalIndent(&m.st, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(m.dir, 0o700) == nil {
		writeFile(filepath.Join(m.dir, "state.json"), data)
	}
}

// writeFile replaces name with data atomically.
func writeFile(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
