// Package egresstest serves package registries on loopback for tests of
// the sandbox's egress proxy: an npm registry (packuments and tarballs)
// and a Go module proxy (the GOPROXY protocol), built in memory, under
// host names that egress.TestingResolve maps to 127.0.0.1. The machine
// running the tests needs no network beyond loopback.
package egresstest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cmdguard/cmdguard/internal/egress"
)

// A Registry is an npm registry and a Go module proxy on one loopback
// port. Requests are answered whatever Host they name; the proxy under
// test decides which names reach it.
type Registry struct {
	// Port is the loopback port both serve on.
	Port int
	srv  *http.Server
	l    net.Listener

	npmBase string
	npm     map[string]npmPackage // by name
	gomod   map[string]goModule   // by module path

	mu   sync.Mutex
	hits map[string]int // by request path
}

type npmPackage struct {
	version string
	deps    map[string]string
	tgz     []byte
}

type goModule struct {
	version string
	mod     string
	zip     []byte
}

// Start serves a registry on 127.0.0.1 with the npm packages names
// (version 1.0.0, each depending on the next with deps set, so that one
// install fetches them all) and the Go modules mods (version v1.0.0,
// one package each). npmHost is the name npm's tarball URLs use. Close
// it when done.
func Start(npmHost string, names []string, chain bool, mods []string) (*Registry, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &Registry{Port: l.Addr().(*net.TCPAddr).Port, l: l, npm: map[string]npmPackage{}, gomod: map[string]goModule{}, hits: map[string]int{}}
	r.npmBase = fmt.Sprintf("http://%s:%d", npmHost, r.Port)
	for i, name := range names {
		p := npmPackage{version: "1.0.0", deps: map[string]string{}}
		if chain && i+1 < len(names) {
			p.deps[names[i+1]] = "^1.0.0"
		}
		pj, _ := json.Marshal(map[string]any{"name": name, "version": p.version, "main": "index.js", "dependencies": p.deps})
		p.tgz, err = npmTarball(map[string]string{
			"package/package.json": string(pj),
			"package/index.js":     fmt.Sprintf("module.exports = %q;\n", name),
		})
		if err != nil {
			l.Close()
			return nil, err
		}
		r.npm[name] = p
	}
	for _, m := range mods {
		pkg := m[strings.LastIndexByte(m, '/')+1:]
		gm := goModule{version: "v1.0.0", mod: "module " + m + "\n\ngo 1.21\n"}
		gm.zip, err = goZip(m+"@"+gm.version, map[string]string{
			"go.mod":    gm.mod,
			pkg + ".go": "// Package " + pkg + " greets.\npackage " + pkg + "\n\n// Hello greets.\nfunc Hello() string { return \"hello from " + m + "\" }\n",
			"LICENSE":   "Public domain.\n",
		})
		if err != nil {
			l.Close()
			return nil, err
		}
		r.gomod[m] = gm
	}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(l)
	return r, nil
}

// Close stops the server and closes its connections.
func (r *Registry) Close() { r.srv.Close() }

// Hits returns how many requests each path got.
func (r *Registry) Hits() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.hits))
	for k, v := range r.hits {
		out[k] = v
	}
	return out
}

func (r *Registry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.hits[req.URL.Path]++
	r.mu.Unlock()
	path := strings.TrimPrefix(req.URL.Path, "/")
	if mod, rest, ok := strings.Cut(path, "/@v/"); ok {
		r.serveGo(w, mod, rest)
		return
	}
	if name, file, ok := strings.Cut(path, "/-/"); ok {
		p, found := r.npm[strings.ReplaceAll(name, "%2f", "/")]
		if !found || file != npmFile(name, p.version) {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(p.tgz)
		return
	}
	p, found := r.npm[strings.ReplaceAll(path, "%2f", "/")]
	if !found {
		http.NotFound(w, req)
		return
	}
	sum512 := sha512.Sum512(p.tgz)
	sum1 := sha1.Sum(p.tgz)
	v := map[string]any{
		"name": path, "version": p.version, "dependencies": p.deps,
		"dist": map[string]any{
			"tarball":   r.npmBase + "/" + path + "/-/" + npmFile(path, p.version),
			"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
			"shasum":    hex.EncodeToString(sum1[:]),
		},
	}
	b, _ := json.Marshal(map[string]any{"name": path, "dist-tags": map[string]string{"latest": p.version},
		"versions": map[string]any{p.version: v}, "modified": "2024-01-01T00:00:00.000Z"})
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func npmFile(name, version string) string {
	return name[strings.LastIndexByte(name, '/')+1:] + "-" + version + ".tgz"
}

func (r *Registry) serveGo(w http.ResponseWriter, mod, rest string) {
	m, ok := r.gomod[mod]
	if !ok {
		http.Error(w, "not found: "+mod, http.StatusNotFound)
		return
	}
	switch rest {
	case "list":
		fmt.Fprintln(w, m.version)
	case m.version + ".info":
		fmt.Fprintf(w, `{"Version":%q,"Time":"2024-01-01T00:00:00Z"}`, m.version)
	case m.version + ".mod":
		w.Write([]byte(m.mod))
	case m.version + ".zip":
		w.Header().Set("Content-Type", "application/zip")
		w.Write(m.zip)
	default:
		http.Error(w, "not found: "+mod+"@"+rest, http.StatusNotFound)
	}
}

// npmTarball builds a gzipped tar of files (names in order).
func npmTarball(files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		body := files[n]
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(body)), ModTime: time.Unix(1700000000, 0), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// goZip builds a module zip: every file under "MODULE@VERSION/", as the
// GOPROXY protocol's .zip holds them.
func goZip(prefix string, files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, err := zw.Create(prefix + "/" + n)
		if err != nil {
			return nil, err
		}
		if _, err := f.Write([]byte(files[n])); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Resolve makes every egress.Proxy of this process (those without a
// Resolve of their own) resolve names to 127.0.0.1 and no other name,
// until restore is called: see egress.TestingResolve.
func Resolve(names ...string) (restore func()) {
	lo := netip.MustParseAddr("127.0.0.1")
	return egress.TestingResolve(func(ctx context.Context, host string) ([]netip.Addr, error) {
		if slices.Contains(names, host) {
			return []netip.Addr{lo}, nil
		}
		return nil, &net.DNSError{Err: "no such host (egresstest)", Name: host, IsNotFound: true}
	})
}
