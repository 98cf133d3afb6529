package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	mcpserver "github.com/cmdguard/cmdguard/adapter/mcp"
)

const mcpUsage = "usage: cmdguard mcp [--policy FILE] [--cwd DIR] [--output-limit N] [--http ADDR [--token-file FILE]]\n\n" + mcpAbout

const mcpAbout = `Serves cmdguard's shell tools to an MCP client (run_command, start_command,
read_output, write_stdin, kill_command, check_command): every command is
checked against the project's policy and ignore files before it runs.

Over stdio by default (the client starts cmdguard mcp). With --http ADDR it
serves streamable HTTP at http://ADDR/mcp instead, on a loopback address
unless a token is given; every request needs "Authorization: Bearer TOKEN",
the token read from --token-file, else $CMDGUARD_MCP_TOKEN, else made up
and printed on stderr (loopback only).

Exit codes: 0 when the client closes the connection or on SIGTERM/SIGINT
(every command it started is ended), 3 on bad usage or an unusable policy.`

// mcpEnvToken names the environment variable holding the HTTP token.
const mcpEnvToken = "CMDGUARD_MCP_TOKEN"

func (c *cli) mcp(args []string) int {
	fs := c.flagSet("mcp")
	var f gateFlags
	fs.StringVar(&f.policy, "policy", "", "policy `FILE` (default: the first .cmdguard.yaml above --cwd)")
	fs.StringVar(&f.cwd, "cwd", "", "project `DIR` (default: the current directory)")
	limit := fs.String("output-limit", "", "bytes of each stream a tool result shows (default: the policy's exec.model_output_limit, else 30000)")
	addr := fs.String("http", "", "serve streamable HTTP on `ADDR` (host:port) instead of stdio")
	tokenFile := fs.String("token-file", "", "read the HTTP bearer token from `FILE`")
	sandbox := fs.Bool("sandbox", false, "run every command under the policy's kernel sandbox, as cmdguard run --sandbox (a policy whose sandbox: section enables it needs no flag)")
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("mcp: %v", err)
	}
	if fs.NArg() > 0 {
		return c.errorf("mcp: unexpected argument %q\n%s", fs.Arg(0), mcpUsage)
	}
	n, err := parseSize(*limit)
	if err != nil {
		return c.errorf("mcp: --output-limit: %v", err)
	}
	g, _, err := f.guard()
	if err != nil {
		return c.errorf("mcp: %v", err)
	}
	// The commands get cmdguard's environment, without the HTTP token.
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, mcpEnvToken+"=") {
			base = append(base, kv)
		}
	}
	s, err := mcpserver.New(g, mcpserver.Options{Version: "dev", OutputLimit: n, BaseEnv: base, Sandbox: *sandbox})
	if err != nil {
		return c.errorf("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer func() {
		s.Close()
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		g.Close(cctx)
	}()
	if *addr == "" {
		if *tokenFile != "" {
			return c.errorf("mcp: --token-file needs --http")
		}
		err := s.MCP().Run(ctx, &sdk.StdioTransport{})
		if err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) && !isEOF(err) {
			fmt.Fprintf(c.stderr, "cmdguard: mcp: %v\n", err)
		}
		return 0
	}
	token, err := readToken(*tokenFile, mcpEnvToken)
	if err != nil {
		return c.errorf("mcp: %v", err)
	}
	if !loopback(*addr) && token == "" {
		return c.errorf("mcp: --http %s is not a loopback address: give a token (--token-file or $%s)", *addr, mcpEnvToken)
	}
	if token == "" {
		var b [24]byte
		rand.Read(b[:])
		token = hex.EncodeToString(b[:])
		fmt.Fprintf(c.stderr, "cmdguard mcp: token: %s\n", token)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return c.errorf("mcp: %v", err)
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.MCP() }, &sdk.StreamableHTTPOptions{SessionTimeout: time.Hour})
	mux := http.NewServeMux()
	mux.Handle("/mcp", bearer(token, http.NewCrossOriginProtection().Handler(h)))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(c.stderr, "cmdguard mcp: serving http://%s/mcp for %s\n", ln.Addr(), s.Root())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return c.errorf("mcp: %v", err)
	}
	return 0
}

func isEOF(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "closed"))
}

// bearer lets through only requests with the token.
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte("Bearer " + token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cmdguard mcp"`)
			http.Error(w, "cmdguard mcp: missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
