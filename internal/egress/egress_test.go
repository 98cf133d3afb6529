package egress_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/internal/egress"
)

// proxy starts p on a Unix socket and returns its path; names ending in
// .test resolve to 127.0.0.1, and lookups are counted.
func proxy(t *testing.T, p *egress.Proxy) (string, *atomic.Int32) {
	t.Helper()
	lookups := new(atomic.Int32)
	p.Resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
		lookups.Add(1)
		if strings.HasSuffix(host, ".test") {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, errors.New("no such host")
	}
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Serve(l) }()
	t.Cleanup(func() {
		l.Close()
		p.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return sock, lookups
}

func port(t *testing.T, rawURL string) int {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// client goes through the HTTP proxy at sock and trusts srv's certificate.
func client(sock string, srv *httptest.Server) *http.Client {
	tr := &http.Transport{
		Proxy: http.ProxyURL(&url.URL{Scheme: "http", Host: "proxy"}),
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		},
	}
	if srv != nil && srv.TLS != nil {
		tr.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
		tr.TLSClientConfig.ServerName = "example.com"
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

func hello(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "hello %s", r.Host) }

func get(t *testing.T, c *http.Client, u string) (int, string, error) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func TestHTTPAndConnect(t *testing.T) {
	t.Parallel()
	plain := httptest.NewServer(http.HandlerFunc(hello))
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(hello))
	defer tlsSrv.Close()
	pp, tp := port(t, plain.URL), port(t, tlsSrv.URL)
	p := &egress.Proxy{Rules: []egress.Rule{
		{Pattern: "allowed.test:" + strconv.Itoa(pp), Host: "allowed.test", Port: pp},
		{Pattern: "*.sub.test:" + strconv.Itoa(tp), Host: "sub.test", Subdomains: true, Port: tp},
	}}
	sock, lookups := proxy(t, p)

	code, body, err := get(t, client(sock, nil), fmt.Sprintf("http://allowed.test:%d/x", pp))
	if err != nil || code != 200 || body != fmt.Sprintf("hello allowed.test:%d", pp) {
		t.Errorf("plain HTTP to a listed host = %d %q %v, want 200 hello", code, body, err)
	}
	// A Host header other than the URL's is not passed on.
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "GET http://allowed.test:%d/ HTTP/1.1\r\nHost: unlisted.test\r\n\r\n", pp)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	c.Close()
	if want := fmt.Sprintf("hello allowed.test:%d", pp); string(b) != want {
		t.Errorf("a spoofed Host header: %q, want %q", b, want)
	}
	code, body, err = get(t, client(sock, tlsSrv), fmt.Sprintf("https://a.sub.test:%d/", tp))
	if err != nil || code != 200 || !strings.HasPrefix(body, "hello a.sub.test") {
		t.Errorf("CONNECT to a listed host = %d %q %v, want 200 hello", code, body, err)
	}
	// Refused: an unlisted name, the wildcard's own name, a listed name
	// on another port, an IP address not listed.
	refused := []string{
		fmt.Sprintf("http://refused.test:%d/", pp),
		fmt.Sprintf("http://allowed.test:%d/", tp),
		fmt.Sprintf("http://127.0.0.1:%d/", pp),
	}
	for _, u := range refused {
		code, body, err := get(t, client(sock, nil), u)
		if err != nil || code != http.StatusForbidden || !strings.Contains(body, "not in sandbox.network") {
			t.Errorf("GET %s = %d %q %v, want 403 not in sandbox.network", u, code, body, err)
		}
	}
	for _, u := range []string{fmt.Sprintf("https://sub.test:%d/", tp), fmt.Sprintf("https://allowed.test:%d/", tp)} {
		if _, _, err := get(t, client(sock, tlsSrv), u); err == nil || !strings.Contains(err.Error(), "Forbidden") {
			t.Errorf("GET %s: %v, want the proxy's 403", u, err)
		}
	}
	ds, dropped := p.Decisions()
	want := []string{
		fmt.Sprintf("http allowed.test:%d allowed allowed.test:%d", pp, pp),
		fmt.Sprintf("http allowed.test:%d allowed allowed.test:%d", pp, pp),
		fmt.Sprintf("connect a.sub.test:%d allowed *.sub.test:%d", tp, tp),
		fmt.Sprintf("http refused.test:%d refused not in sandbox.network", pp),
		fmt.Sprintf("http allowed.test:%d refused not in sandbox.network", tp),
		fmt.Sprintf("http 127.0.0.1:%d refused not in sandbox.network", pp),
		fmt.Sprintf("connect sub.test:%d refused not in sandbox.network", tp),
		fmt.Sprintf("connect allowed.test:%d refused not in sandbox.network", tp),
	}
	var got []string
	for _, d := range ds {
		s := fmt.Sprintf("%s %s:%d refused %s", d.Via, d.Host, d.Port, d.Reason)
		if d.Allowed {
			s = fmt.Sprintf("%s %s:%d allowed %s", d.Via, d.Host, d.Port, d.Rule)
		}
		got = append(got, s)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || dropped != 0 {
		t.Errorf("decisions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Only the listed names were looked up.
	if n := lookups.Load(); n != 3 {
		t.Errorf("%d lookups, want 3 (the listed names only)", n)
	}
}

// socks5 asks the proxy at sock for host:port and returns the reply code
// and the connection.
func socks5(t *testing.T, sock, host string, port int) (byte, net.Conn) {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	req := []byte{5, 1, 0, 5, 1, 0}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		req = append(append(req, 1), a.AsSlice()...)
	} else {
		req = append(append(req, 3, byte(len(host))), host...)
	}
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	var resp [12]byte
	if _, err := io.ReadFull(c, resp[:]); err != nil {
		t.Fatalf("SOCKS5 %s:%d: %v", host, port, err)
	}
	if !bytes.Equal(resp[:2], []byte{5, 0}) || resp[2] != 5 {
		t.Fatalf("SOCKS5 reply % x", resp)
	}
	return resp[3], c
}

func TestSOCKS5(t *testing.T) {
	t.Parallel()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(hello))
	defer tlsSrv.Close()
	tp := port(t, tlsSrv.URL)
	p := &egress.Proxy{Rules: []egress.Rule{{Pattern: "allowed.test:" + strconv.Itoa(tp), Host: "allowed.test", Port: tp}}}
	sock, lookups := proxy(t, p)

	code, c := socks5(t, sock, "allowed.test", tp)
	if code != 0 {
		t.Fatalf("SOCKS5 to a listed host: reply %d, want 0", code)
	}
	cfg := tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	cfg.ServerName = "example.com"
	tc := tls.Client(c, cfg)
	fmt.Fprintf(tc, "GET / HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "hello allowed.test" {
		t.Errorf("body %q", b)
	}
	tc.Close()

	for _, hp := range []struct {
		host string
		port int
	}{{"refused.test", tp}, {"allowed.test", tp + 1}, {"127.0.0.1", tp}, {"ALLOWED.test.evil", tp}} {
		code, c := socks5(t, sock, hp.host, hp.port)
		c.Close()
		if code != 2 {
			t.Errorf("SOCKS5 %s:%d: reply %d, want 2 (not allowed by the rules)", hp.host, hp.port, code)
		}
	}
	ds, _ := p.Decisions()
	if len(ds) != 5 || !ds[0].Allowed || ds[0].Via != "socks5" || ds[1].Allowed || ds[1].Reason != egress.NotListed {
		t.Errorf("decisions %+v", ds)
	}
	if n := lookups.Load(); n != 1 {
		t.Errorf("%d lookups, want 1", n)
	}
}

// TestBareNamePorts: a rule without a port allows 80 and 443 only.
func TestBareNamePorts(t *testing.T) {
	t.Parallel()
	var dialed []string
	var mu sync.Mutex
	p := &egress.Proxy{
		Rules: []egress.Rule{{Pattern: "reg.test", Host: "reg.test"}},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dialed = append(dialed, addr)
			mu.Unlock()
			return nil, errors.New("no network in this test")
		},
	}
	sock, _ := proxy(t, p)
	for port, want := range map[int]byte{80: 4, 443: 4, 8080: 2, 22: 2} {
		code, c := socks5(t, sock, "reg.test", port)
		c.Close()
		if code != want {
			t.Errorf("reg.test:%d: reply %d, want %d", port, code, want)
		}
	}
	ds, _ := p.Decisions()
	for _, d := range ds {
		if d.Allowed && d.Reason != egress.DialFail {
			t.Errorf("%+v: want the dial failure recorded", d)
		}
	}
	if len(dialed) != 2 {
		t.Errorf("dialed %v, want 127.0.0.1:80 and :443 only", dialed)
	}
}

func TestLongNameRefused(t *testing.T) {
	t.Parallel()
	label63 := strings.Repeat("a", 63)
	long254 := strings.Repeat(label63+".", 3) + strings.Repeat("b", 61) + ".test" // 258
	p := &egress.Proxy{Rules: []egress.Rule{
		{Pattern: "*.test", Host: "test", Subdomains: true, Port: 443},
	}}
	sock, lookups := proxy(t, p)
	for _, name := range []string{long254, strings.Repeat("a", 64) + ".test", "a..test", "-a.test", "a b.test", "a%00.test", "1.2.3.test.4"} {
		code, c := socks5(t, sock, name, 443)
		c.Close()
		if code != 2 {
			t.Errorf("SOCKS5 %q: reply %d, want 2", name, code)
		}
		c2, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c2, "CONNECT %s:443 HTTP/1.1\r\nHost: %s:443\r\n\r\n", name, name)
		resp, err := http.ReadResponse(bufio.NewReader(c2), nil)
		if err == nil {
			resp.Body.Close()
		}
		c2.Close()
		if err != nil || resp.StatusCode/100 != 4 {
			t.Errorf("CONNECT %q: %v %v, want a 4xx", name, resp, err)
		}
	}
	ds, _ := p.Decisions()
	for _, d := range ds {
		if d.Allowed {
			t.Errorf("%q allowed", d.Host)
		}
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("%d lookups of invalid names, want 0", n)
	}
	// 253 characters in labels of 63 pass the check.
	ok := strings.Repeat(label63+".", 3) + strings.Repeat("b", 56) + ".test"
	if len(ok) != 253 {
		t.Fatalf("len %d", len(ok))
	}
	code, c := socks5(t, sock, ok, 443)
	c.Close()
	if code != 4 { // allowed; nothing listens on 127.0.0.1:443
		ds, _ := p.Decisions()
		t.Errorf("a 253-character name: reply %d (%+v), want 4 (allowed, unreachable)", code, ds[len(ds)-1])
	}
}

// TestSlowHandshakeDropped: a client that does not finish its request is
// dropped after HandshakeTimeout, in each protocol.
func TestSlowHandshakeDropped(t *testing.T) {
	t.Parallel()
	p := &egress.Proxy{HandshakeTimeout: 200 * time.Millisecond}
	sock, _ := proxy(t, p)
	for _, partial := range []string{"", "CONNECT a.test:443 HTTP/1.1\r\n", "\x05\x01", "\x05\x01\x00\x05\x01\x00\x03\x10abc"} {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, partial)
		start := time.Now()
		c.SetReadDeadline(start.Add(5 * time.Second))
		_, err = io.Copy(io.Discard, c)
		el := time.Since(start)
		c.Close()
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() || el > 2*time.Second {
			t.Errorf("partial %q: still open after %v", partial, el)
		}
	}
}

// TestConcurrent: 200 tunnels at once through one proxy, each sending
// 256 KiB to an echo server and reading it back, not a byte lost.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() {
				io.Copy(c, c)
				c.(*net.TCPConn).CloseWrite()
				c.Close()
			}()
		}
	}()
	ep := echo.Addr().(*net.TCPAddr).Port
	p := &egress.Proxy{Rules: []egress.Rule{{Pattern: "echo.test", Host: "echo.test", Port: ep}}}
	sock, _ := proxy(t, p)
	const n, size = 200, 256 << 10
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := (&net.Dialer{}).DialContext(ctx, "unix", sock)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			dl, _ := ctx.Deadline()
			c.SetDeadline(dl)
			br := bufio.NewReader(c)
			if i%2 == 0 {
				fmt.Fprintf(c, "CONNECT echo.test:%d HTTP/1.1\r\nHost: echo.test\r\n\r\n", ep)
				resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
				if err != nil || resp.StatusCode != 200 {
					errs <- fmt.Errorf("CONNECT: %v %v", resp, err)
					return
				}
			} else {
				req := binary.BigEndian.AppendUint16(append([]byte{5, 1, 0, 5, 1, 0, 3, 9}, "echo.test"...), uint16(ep))
				c.Write(req)
				var resp [12]byte
				if _, err := io.ReadFull(br, resp[:]); err != nil || resp[3] != 0 {
					errs <- fmt.Errorf("SOCKS5: % x %v", resp, err)
					return
				}
			}
			data := make([]byte, size)
			rand.Read(data)
			go func() {
				c.Write(data)
				c.(*net.UnixConn).CloseWrite()
			}()
			got, err := io.ReadAll(br)
			if err != nil || !bytes.Equal(got, data) {
				errs <- fmt.Errorf("tunnel %d: %d of %d bytes back, equal %v, %v", i, len(got), size, bytes.Equal(got, data), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ds, _ := p.Decisions()
	if len(ds) != n {
		t.Errorf("%d decisions, want %d", len(ds), n)
	}
}
