package main

import (
	"fmt"
	"net"
	"os"
	"strings"
)

// minToken is the shortest bearer token serve and mcp accept.
const minToken = 16

// readToken reads a bearer token from file, else from the environment
// variable env; "" when neither holds one. A token shorter than minToken
// characters is an error: it could be guessed.
func readToken(file, env string) (string, error) {
	where, tok := "$"+env, strings.TrimSpace(os.Getenv(env))
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		where, tok = file, strings.TrimSpace(string(b))
		if tok == "" {
			return "", fmt.Errorf("--token-file %s is empty", file)
		}
	}
	if tok != "" && len(tok) < minToken {
		return "", fmt.Errorf("the token in %s is shorter than %d characters", where, minToken)
	}
	return tok, nil
}

// loopback reports whether addr (host:port) listens on loopback only. An
// address that does not parse, or names every interface, is not.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
