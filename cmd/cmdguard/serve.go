package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// tokenEnv is the environment variable that may hold serve's bearer token.
const tokenEnv = "CMDGUARD_SERVE_TOKEN"

const serveAbout = `Serves the AIO sandbox's /v1/bash API (exec, output, write, kill, sessions)
with every command checked by the gate first. A refused command never
starts: the answer is 200 with success false, data.status "refused" and
every reason. Loopback only unless a bearer token is set (--token-file or
$` + tokenEnv + `). SIGTERM or SIGINT ends every command and exits 0.
Exit codes: 0 after SIGTERM or SIGINT, 3 on bad usage, an unusable policy
or an address that cannot be served.`

// serve runs `cmdguard serve`; it returns when a signal ends the server.
func (c *cli) serve(args []string) int {
	fs := c.flagSet("serve")
	var f gateFlags
	fs.StringVar(&f.policy, "policy", "", "policy `FILE` (default: the first .cmdguard.yaml above --cwd, else the built-in policy)")
	fs.StringVar(&f.cwd, "cwd", "", "project `DIR`: the default working directory of sessions (default: the current directory)")
	listen := fs.String("listen", "127.0.0.1:8080", "`ADDR` to listen on; any address but loopback needs a token")
	tokenFile := fs.String("token-file", "", "`FILE` holding the bearer token every request must send (default: $"+tokenEnv+")")
	ask := fs.String("ask", "deny", "what a command rated ask gets: deny, or allow (UNSAFE: runs it without anyone approving)")
	logFormat := fs.String("log-format", "json", "access log on stderr: json or text")
	maxCommands := fs.Int("max-commands", bashapi.DefaultMaxCommands, "commands running at once (beyond: 429)")
	maxSessions := fs.Int("max-sessions", bashapi.DefaultMaxSessions, "open sessions (beyond: 429)")
	outputLimit := fs.String("output-limit", "1MiB", "newest bytes of output kept per stream of each command")
	maxBody := fs.String("max-body", "1MiB", "largest request body (beyond: 413)")
	sandbox := fs.Bool("sandbox", false, "run every command under the policy's kernel sandbox, as cmdguard run --sandbox (a policy whose sandbox: section enables it needs no flag)")
	idle := fs.Duration("idle-expiry", bashapi.DefaultIdleExpiry, "close a session unused for this long (none of its commands running)")
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("serve: %v", err)
	}
	if fs.NArg() > 0 {
		return c.errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	var logger *slog.Logger
	switch *logFormat {
	case "json":
		logger = slog.New(slog.NewJSONHandler(c.stderr, nil))
	case "text":
		logger = slog.New(slog.NewTextHandler(c.stderr, nil))
	default:
		return c.errorf("serve: --log-format must be json or text, not %q", *logFormat)
	}
	if *ask != "deny" && *ask != "allow" {
		return c.errorf("serve: --ask must be deny or allow, not %q", *ask)
	}
	outLimit, err := parseSize(*outputLimit)
	if err != nil {
		return c.errorf("serve: --output-limit: %v", err)
	}
	bodyLimit, err := parseSize(*maxBody)
	if err != nil {
		return c.errorf("serve: --max-body: %v", err)
	}
	if *maxCommands <= 0 || *maxSessions <= 0 || *idle <= 0 {
		return c.errorf("serve: --max-commands, --max-sessions and --idle-expiry must be positive")
	}
	token, err := readToken(*tokenFile, tokenEnv)
	if err != nil {
		return c.errorf("serve: %v", err)
	}
	if token == "" && !loopback(*listen) {
		return c.errorf("serve: --listen %s is not a loopback address: set a bearer token with --token-file or $%s (no token, no start)", *listen, tokenEnv)
	}
	g, cwd, err := f.guard()
	if err != nil {
		return c.errorf("%v", err)
	}
	api, err := bashapi.New(bashapi.Config{
		Guard: g, Dir: cwd, BaseEnv: baseEnv(), AllowAsk: *ask == "allow", Token: token,
		MaxCommands: *maxCommands, MaxSessions: *maxSessions, OutputLimit: outLimit,
		MaxBody: int64(bodyLimit), IdleExpiry: *idle, Logger: logger, Sandbox: *sandbox,
	})
	if err != nil {
		return c.errorf("serve: %v", err)
	}
	// Catch the signals before saying "listening": from then on, SIGTERM
	// and SIGINT end the commands before the server exits.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return c.errorf("serve: %v", err)
	}
	if *ask == "allow" {
		logger.Warn("--ask allow: commands the policy rates ask RUN WITHOUT ANYONE APPROVING THEM; use it only where every client is trusted")
		fmt.Fprintln(c.stderr, "cmdguard: WARNING: --ask allow: commands rated ask run without approval")
	}
	logger.Info("listening", "addr", ln.Addr().String(), "root", g.Root(), "cwd", cwd, "token", token != "", "ask", *ask)

	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := &http.Server{
		Handler:           api,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	code := 0
	select {
	case sig := <-sigs:
		logger.Info("shutting down", "signal", sig.String())
	case err := <-served:
		logger.Error("server failed", "error", err.Error())
		code = exitError
	}
	// Stop accepting, end every command (which ends the requests waiting
	// on them), then the requests still open.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(ctx) }()
	api.Close(ctx)
	g.Close(ctx)
	cancelBase()
	if err := <-shut; err != nil {
		srv.Close()
	}
	logger.Info("stopped")
	return code
}

// baseEnv is the environment commands start from: the server's, without
// its token (the policy's exec.env_allow reduces it further).
func baseEnv() []string {
	env := os.Environ()
	return slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, tokenEnv+"=") })
}
