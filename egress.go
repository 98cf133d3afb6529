package cmdguard

import (
	"net"
	"sync"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/egress"
	"github.com/cmdguard/cmdguard/policy"
)

// netProxy is the sandbox's way out when sandbox.network is a list: an
// egress.Proxy for one run, serving the listener the sandbox made inside
// the command's network namespace.
type netProxy struct {
	p    *egress.Proxy
	l    net.Listener
	done chan struct{}
	once sync.Once
	conn []exec.Connection
}

func newNetProxy(rules []policy.HostRule) *netProxy {
	p := &egress.Proxy{Rules: make([]egress.Rule, 0, len(rules))}
	for _, r := range rules {
		p.Rules = append(p.Rules, egress.Rule{Pattern: r.Pattern, Host: r.Host, Subdomains: r.Subdomains, Port: r.Port})
	}
	return &netProxy{p: p, done: make(chan struct{})}
}

func (n *netProxy) Start(l net.Listener) error {
	n.l = l
	go func() {
		defer close(n.done)
		n.p.Serve(l)
	}()
	return nil
}

func (n *netProxy) Stop() []exec.Connection {
	n.once.Do(func() {
		if n.l != nil {
			n.l.Close()
			<-n.done
		}
		n.p.Close()
		ds, _ := n.p.Decisions()
		for _, d := range ds {
			n.conn = append(n.conn, exec.Connection(d))
		}
	})
	return n.conn
}
