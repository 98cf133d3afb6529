// Package egress is the sandbox's way out to the network: an HTTP proxy
// (CONNECT for TLS, plain HTTP forwarding) and a SOCKS5 proxy on one
// listener, which connect only to the hosts and ports a list of rules
// names, resolving names themselves.
//
// A sandboxed command runs in a network namespace with only loopback;
// the listener it reaches is this proxy's. The command never resolves a
// name (no DNS server is reachable from inside), so an unlisted name is
// not even looked up: a lookup cannot carry data out as a query. The
// proxy connects to an IP address only when a rule names that address.
//
// Every decision is recorded (host, port, allowed or refused, the rule
// or the reason), bounded in number. A client that does not finish its
// request within HandshakeTimeout is dropped.
//
// # Protocols
//
// HTTP requests are read and written with net/http (ReadRequest,
// Request.Write). SOCKS5 is the CONNECT subset of RFC 1928 without
// authentication, read here byte by byte with fixed bounds: the server
// libraries (armon/go-socks5, things-go/go-socks5) resolve a domain name
// before their rule set sees the request, which would send every
// unlisted name to DNS, and the subset a package manager needs is a few
// fixed-size fields.
package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Rule allows a host: a name (or, with Subdomains, the names below it)
// or an IP address, on Port or, when Port is 0, on 80 and 443.
type Rule struct {
	Pattern    string // as written in the policy, for the record
	Host       string // lower case, no trailing dot; or an IP address
	Subdomains bool
	Port       int
}

// A Decision is what the proxy did with one request.
type Decision struct {
	Host    string `json:"host"`
	Port    int    `json:"port"`
	Allowed bool   `json:"allowed"`
	// Rule is the pattern that allowed it; Reason says why it was
	// refused, or why an allowed connection failed.
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Via is "http", "connect" or "socks5".
	Via string `json:"via"`
}

// Reasons a request is refused.
const (
	NotListed   = "not in sandbox.network"
	BadName     = "not a valid host name (253 characters, 63 per label)"
	BadAddress  = "resolves only to loopback, link-local or unspecified addresses"
	ResolveFail = "the name does not resolve"
	DialFail    = "the connection failed"
)

// A Proxy serves the protocols on listeners; its zero value with Rules
// set is ready. Its fields must not change once Serve is called.
type Proxy struct {
	Rules []Rule
	// Resolve looks a listed name up; nil uses the system's resolver and
	// drops loopback, link-local, multicast and unspecified addresses (a
	// listed name must not lead to the host's own services or a cloud's
	// metadata address).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects; nil uses a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// HandshakeTimeout bounds the time from accepting a connection to
	// the end of its request (and the connection upstream); 0 is 10s.
	HandshakeTimeout time.Duration
	// DialTimeout bounds the connection upstream; 0 is 30s.
	DialTimeout time.Duration
	// MaxConns bounds the connections served at once; 0 is 512. Those
	// over it are closed at once.
	MaxConns int
	// OnDecision, if not nil, is called with each decision as it is made
	// (from the connection's goroutine).
	OnDecision func(Decision)

	mu        sync.Mutex
	decisions []Decision
	dropped   int
	conns     map[net.Conn]bool
	closed    bool
	wg        sync.WaitGroup
}

// maxDecisions bounds the record; Dropped counts the rest.
const maxDecisions = 4096

// Decisions returns the decisions made so far, and how many more were
// made and not kept.
func (p *Proxy) Decisions() ([]Decision, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Decision(nil), p.decisions...), p.dropped
}

func (p *Proxy) record(d Decision) {
	p.mu.Lock()
	if len(p.decisions) < maxDecisions {
		p.decisions = append(p.decisions, d)
	} else {
		p.dropped++
	}
	p.mu.Unlock()
	if p.OnDecision != nil {
		p.OnDecision(d)
	}
}

// Serve accepts connections on l until l is closed or Close is called,
// serving each in its own goroutine. It returns nil when closed.
func (p *Proxy) Serve(l net.Listener) error {
	max := p.MaxConns
	if max <= 0 {
		max = 512
	}
	for {
		c, err := l.Accept()
		if err != nil {
			p.mu.Lock()
			closed := p.closed
			p.mu.Unlock()
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !closed {
				continue
			}
			if closed || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		p.mu.Lock()
		if p.conns == nil {
			p.conns = map[net.Conn]bool{}
		}
		if p.closed || len(p.conns) >= max {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c] = true
		p.wg.Add(1)
		p.mu.Unlock()
		go func() {
			defer p.wg.Done()
			p.serve(c)
			p.mu.Lock()
			delete(p.conns, c)
			p.mu.Unlock()
			c.Close()
		}()
	}
}

// Close closes every connection being served and waits for their
// goroutines; the caller closes the listeners.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *Proxy) serve(c net.Conn) {
	hs := p.HandshakeTimeout
	if hs <= 0 {
		hs = 10 * time.Second
	}
	deadline := time.Now().Add(hs)
	c.SetDeadline(deadline)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	br := bufio.NewReaderSize(c, 4096)
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	if first[0] == 5 {
		p.socks(ctx, c, br)
		return
	}
	p.http(ctx, c, br)
}

// decide checks host and port against the rules and connects when they
// allow it.
func (p *Proxy) decide(ctx context.Context, host string, port int, via string) (net.Conn, Decision) {
	d := Decision{Host: host, Port: port, Via: via}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	addr, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	isIP := err == nil
	if isIP {
		addr = addr.Unmap()
		host = addr.String()
	} else if !validName(host) {
		d.Reason = BadName
		return nil, d
	}
	if port < 1 || port > 65535 {
		d.Reason = NotListed
		return nil, d
	}
	rule, ok := p.match(host, isIP, port)
	if !ok {
		d.Reason = NotListed
		return nil, d
	}
	d.Allowed, d.Rule = true, rule.Pattern
	var addrs []netip.Addr
	if isIP {
		addrs = []netip.Addr{addr}
	} else {
		addrs, err = p.resolve(ctx, host)
		if err != nil || len(addrs) == 0 {
			d.Reason = ResolveFail
			if err == errOnlyLocal {
				d.Reason = BadAddress
			}
			return nil, d
		}
	}
	dt := p.DialTimeout
	if dt <= 0 {
		dt = 30 * time.Second
	}
	dctx, cancel := context.WithTimeout(ctx, dt)
	defer cancel()
	dial := p.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	for _, a := range addrs {
		up, err := dial(dctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return up, d
		}
		if dctx.Err() != nil {
			break
		}
	}
	d.Reason = DialFail
	return nil, d
}

func (p *Proxy) match(host string, isIP bool, port int) (Rule, bool) {
	for _, r := range p.Rules {
		if r.Port == 0 && port != 80 && port != 443 || r.Port != 0 && r.Port != port {
			continue
		}
		if _, err := netip.ParseAddr(r.Host); (err == nil) != isIP {
			continue
		}
		if r.Subdomains {
			if len(host) > len(r.Host)+1 && strings.HasSuffix(host, "."+r.Host) {
				return r, true
			}
			continue
		}
		if isIP {
			a, _ := netip.ParseAddr(r.Host)
			b, _ := netip.ParseAddr(host)
			if a.Unmap() == b {
				return r, true
			}
			continue
		}
		if host == r.Host {
			return r, true
		}
	}
	return Rule{}, false
}

var errOnlyLocal = errors.New("only local addresses")

// testResolve is the resolver set by TestingResolve.
var testResolve atomic.Pointer[func(context.Context, string) ([]netip.Addr, error)]

// TestingResolve is for tests only: until restore is called, every Proxy
// without a Resolve of its own looks names up with f, whose addresses
// are used as they are (loopback included). It lets a test of a package
// that starts its proxy itself (cmdguard's run of a sandboxed command)
// serve a registry on 127.0.0.1 under a listed name. No code outside a
// _test.go file calls it; the package is internal to cmdguard, so no
// other module can.
func TestingResolve(f func(ctx context.Context, host string) ([]netip.Addr, error)) (restore func()) {
	old := testResolve.Swap(&f)
	return func() { testResolve.Store(old) }
}

func (p *Proxy) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if p.Resolve != nil {
		return p.Resolve(ctx, host)
	}
	if f := testResolve.Load(); f != nil {
		return (*f)(ctx, host)
	}
	all, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	var out []netip.Addr
	for _, a := range all {
		a = a.Unmap()
		if a.IsLoopback() || a.IsUnspecified() || a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, errOnlyLocal
	}
	return out, nil
}

// validName reports whether name (lower case, no trailing dot) is a DNS
// name: at most 253 characters, labels of 1 to 63 letters, digits,
// hyphens (not at either end) and underscores, and not all digits at the
// end (a resolver would read 127.1 as an address).
func validName(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.HasPrefix(last, "0x") {
		return false
	}
	return strings.Trim(last, "0123456789") != ""
}

// relay copies between the client (whose reader may hold bytes already
// read) and upstream, both ways, until both sides have ended. A side
// that ends closes its peer's writing half.
func relay(c net.Conn, br *bufio.Reader, up net.Conn) {
	c.SetDeadline(time.Time{})
	done := make(chan struct{})
	go func() {
		// An error (a side closed, or Close) ends both directions; an
		// end of input half-closes the other side.
		if _, err := io.Copy(up, br); err != nil {
			up.Close()
		} else {
			closeWrite(up)
		}
		close(done)
	}()
	if _, err := io.Copy(c, up); err != nil {
		c.Close()
	} else {
		closeWrite(c)
	}
	<-done
	up.Close()
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		return
	}
	c.Close()
}

func (p *Proxy) http(ctx context.Context, c net.Conn, br *bufio.Reader) {
	req, err := http.ReadRequest(br)
	if err != nil {
		writeStatus(c, http.StatusBadRequest, "cmdguard: a request the proxy could not read")
		return
	}
	if req.Method == http.MethodConnect {
		host, port, ok := splitPort(req.RequestURI, 0)
		if !ok {
			writeStatus(c, http.StatusBadRequest, "cmdguard: CONNECT wants HOST:PORT")
			return
		}
		up, d := p.decide(ctx, host, port, "connect")
		p.record(d)
		if up == nil {
			writeRefused(c, d)
			return
		}
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			up.Close()
			return
		}
		relay(c, br, up)
		return
	}
	if req.URL.Scheme != "http" || req.URL.Host == "" {
		writeStatus(c, http.StatusBadRequest, "cmdguard: the proxy forwards http:// URLs; use CONNECT for https")
		return
	}
	host, port, ok := splitPort(req.URL.Host, 80)
	if !ok {
		writeStatus(c, http.StatusBadRequest, "cmdguard: a URL the proxy could not read")
		return
	}
	up, d := p.decide(ctx, host, port, "http")
	p.record(d)
	if up == nil {
		writeRefused(c, d)
		return
	}
	defer up.Close()
	// One request per connection: the request says so, and the response
	// is copied back until the server closes.
	// The Host header is the URL's, the name that was decided: a
	// different one would reach another site on the same server.
	req.Host = ""
	req.Header.Del("Proxy-Connection")
	req.Header.Del("Proxy-Authorization")
	req.Close = true
	c.SetDeadline(time.Time{})
	if err := req.Write(up); err != nil {
		return
	}
	io.Copy(c, up)
}

func writeRefused(c net.Conn, d Decision) {
	code := http.StatusForbidden
	if d.Allowed {
		code = http.StatusBadGateway
	}
	writeStatus(c, code, fmt.Sprintf("cmdguard: %s %s:%d, %s", map[bool]string{true: "could not reach", false: "refused"}[d.Allowed], d.Host, d.Port, d.Reason))
}

func writeStatus(c net.Conn, code int, msg string) {
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s\n",
		code, http.StatusText(code), len(msg)+1, msg)
}

// splitPort splits HOST:PORT (an IPv6 address in brackets); def is the
// port when none is written (0: one is required).
func splitPort(s string, def int) (string, int, bool) {
	host, ps, err := net.SplitHostPort(s)
	if err != nil {
		if def == 0 || strings.Contains(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"), "]") {
			return "", 0, false
		}
		return strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"), def, s != ""
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 1 || port > 65535 || host == "" {
		return "", 0, false
	}
	return host, port, true
}

// SOCKS5 (RFC 1928), CONNECT without authentication.
const (
	socksOK          = 0
	socksFail        = 1
	socksNotAllowed  = 2
	socksUnreachable = 4
	socksBadCommand  = 7
	socksBadAddress  = 8
)

func (p *Proxy) socks(ctx context.Context, c net.Conn, br *bufio.Reader) {
	var hdr [2]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil || hdr[1] == 0 {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(br, methods); err != nil {
		return
	}
	noAuth := false
	for _, m := range methods {
		noAuth = noAuth || m == 0
	}
	if !noAuth {
		c.Write([]byte{5, 0xff})
		return
	}
	if _, err := c.Write([]byte{5, 0}); err != nil {
		return
	}
	var req [4]byte
	if _, err := io.ReadFull(br, req[:]); err != nil || req[0] != 5 || req[2] != 0 {
		return
	}
	var host string
	switch req[3] {
	case 1, 4:
		b := make([]byte, map[byte]int{1: 4, 4: 16}[req[3]])
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		a, _ := netip.AddrFromSlice(b)
		host = a.Unmap().String()
	case 3:
		n, err := br.ReadByte()
		if err != nil {
			return
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		host = string(b)
	default:
		socksReply(c, socksBadAddress)
		return
	}
	var pb [2]byte
	if _, err := io.ReadFull(br, pb[:]); err != nil {
		return
	}
	port := int(pb[0])<<8 | int(pb[1])
	if req[1] != 1 {
		socksReply(c, socksBadCommand)
		return
	}
	up, d := p.decide(ctx, host, port, "socks5")
	p.record(d)
	if up == nil {
		code := byte(socksNotAllowed)
		if d.Allowed {
			code = socksUnreachable
		}
		socksReply(c, code)
		return
	}
	if socksReply(c, socksOK) != nil {
		up.Close()
		return
	}
	relay(c, br, up)
}

// socksReply answers with a bound address of 0.0.0.0:0: the client has
// no use for the proxy's own address.
func socksReply(c net.Conn, code byte) error {
	_, err := c.Write([]byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0})
	return err
}
