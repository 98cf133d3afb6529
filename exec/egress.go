package exec

import (
	"net"
	"strconv"
	"strings"
)

// ProxyPort is the port of 127.0.0.1, inside the command's network
// namespace, where a Sandbox's Proxy listens.
const ProxyPort = 3128

// A Proxy is the way out of a sandbox whose Network is false: Start is
// given the listener the setup made on 127.0.0.1:[ProxyPort] inside the
// command's network namespace (a socket stays in the namespace it was
// made in; the proxy accepts from outside it). Start serves it in the
// background; an error means it could not, and the command does not
// start. Stop, called once after the command and every process of its
// sandbox have ended, closes the listener and the connections left, and
// returns what was decided.
type Proxy interface {
	Start(l net.Listener) error
	Stop() []Connection
}

// A Connection is one request the sandbox's proxy decided. It marshals
// to an entry of the "connections" list of the "sandbox" object.
type Connection struct {
	Host    string `json:"host"`
	Port    int    `json:"port"`
	Allowed bool   `json:"allowed"`
	// Rule is the policy's entry that allowed it; Reason why it was
	// refused (or why an allowed connection failed).
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Via is "http", "connect" or "socks5".
	Via string `json:"via"`
}

// proxyEnv returns env with the settings that send a command's network
// requests to the proxy on 127.0.0.1:port: the variables most tools read
// (both cases), the ones of tools that ignore them (npm, pip, cargo), and
// git's http.proxy as a GIT_CONFIG_* entry. Loopback stays direct. Any
// entry of env with the same name is replaced.
func proxyEnv(env []string, port int) []string {
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	socks := "socks5h://127.0.0.1:" + strconv.Itoa(port)
	set := map[string]string{
		"HTTP_PROXY": url, "HTTPS_PROXY": url, "http_proxy": url, "https_proxy": url,
		"ALL_PROXY": socks, "all_proxy": socks,
		"NO_PROXY": "localhost,127.0.0.1,::1", "no_proxy": "localhost,127.0.0.1,::1",
		"npm_config_proxy": url, "npm_config_https_proxy": url,
		"PIP_PROXY": url, "CARGO_HTTP_PROXY": url,
	}
	gitN := 0
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "GIT_CONFIG_COUNT="); ok {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < 1000 {
				gitN = n
			}
		}
	}
	set["GIT_CONFIG_COUNT"] = strconv.Itoa(gitN + 1)
	set["GIT_CONFIG_KEY_"+strconv.Itoa(gitN)] = "http.proxy"
	set["GIT_CONFIG_VALUE_"+strconv.Itoa(gitN)] = url
	out := make([]string, 0, len(env)+len(set))
	for _, e := range env {
		name, _, _ := strings.Cut(e, "=")
		if _, ok := set[name]; !ok {
			out = append(out, e)
		}
	}
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy",
		"NO_PROXY", "no_proxy", "npm_config_proxy", "npm_config_https_proxy", "PIP_PROXY", "CARGO_HTTP_PROXY",
		"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_" + strconv.Itoa(gitN), "GIT_CONFIG_VALUE_" + strconv.Itoa(gitN)} {
		out = append(out, k+"="+set[k])
	}
	return out
}
