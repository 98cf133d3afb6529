package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

// The editor never sees the proxy's terminals: their ids are unknown to
// it. So where the agent embeds one in a tool call ({"type":"terminal",
// "terminalId":…}), the proxy puts text content in its place — the
// command, its output so far and how it ended — and updates the tool
// call while the command runs, then once more when it ends.

// watch is a tool call that shows terminals.
type watch struct {
	gen uint64 // bumped by each update of the agent's for the tool call
}

// textItem is tool-call content holding text.
type textItem struct {
	Type    string `json:"type"`
	Content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func newTextItem(text string) json.RawMessage {
	var it textItem
	it.Type, it.Content.Type, it.Content.Text = "content", "text", text
	b, _ := json.Marshal(it)
	return b
}

// showTerminals rewrites a session/update's params so that the proxy's
// terminals in a tool call's content show as text. Params it does not
// understand pass as they are. after, when not nil, is to be called once
// the rewritten update has been sent: it keeps the text up to date.
func (s *session) showTerminals(params json.RawMessage) (_ json.RawMessage, after func()) {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return params, nil
	}
	var u map[string]json.RawMessage
	if json.Unmarshal(p["update"], &u) != nil {
		return params, nil
	}
	var kind string
	json.Unmarshal(u["sessionUpdate"], &kind)
	if kind != "tool_call" && kind != "tool_call_update" {
		return params, nil
	}
	var items []json.RawMessage
	if json.Unmarshal(u["content"], &items) != nil {
		return params, nil
	}
	rendered, running, ok := s.render(items)
	if !ok {
		return params, nil
	}
	content, _ := json.Marshal(rendered)
	u["content"] = content
	update, err := json.Marshal(u)
	if err != nil {
		return params, nil
	}
	p["update"] = update
	out, err := json.Marshal(p)
	if err != nil {
		return params, nil
	}
	return out, s.follow(p["sessionId"], u["toolCallId"], items, rendered, running)
}

// render replaces each of the proxy's terminals in items by its text. ok
// reports whether there was one; running whether one still runs.
func (s *session) render(items []json.RawMessage) (out []json.RawMessage, running, ok bool) {
	out = make([]json.RawMessage, len(items))
	for i, raw := range items {
		out[i] = raw
		var it struct {
			Type       string `json:"type"`
			TerminalID string `json:"terminalId"`
		}
		if json.Unmarshal(raw, &it) != nil || it.Type != "terminal" {
			continue
		}
		snap, found := s.terms.Snapshot(it.TerminalID)
		if !found {
			continue
		}
		ok = true
		running = running || (snap.ExitStatus == nil && !snap.Released)
		out[i] = newTextItem(terminalText(snap))
	}
	return out, running, ok
}

// terminalText is what the person sees of a terminal.
func terminalText(s Snapshot) string {
	var b strings.Builder
	b.WriteString(codeBlock(exec.StripANSI("$ " + s.Command + "\n" + s.Output)))
	b.WriteString("\n")
	if s.Truncated {
		b.WriteString("(output truncated: the newest bytes are shown) ")
	}
	switch es := s.ExitStatus; {
	case es != nil && es.ExitCode != nil:
		fmt.Fprintf(&b, "exit code %d", *es.ExitCode)
	case es != nil && es.Signal != nil:
		fmt.Fprintf(&b, "ended by %s", *es.Signal)
	case s.Released:
		b.WriteString("released")
	default:
		b.WriteString("running…")
	}
	return b.String()
}

// follow returns what keeps a tool call's terminal text up to date while
// a terminal in it runs (nil when none runs): from the text sent, it
// re-renders every Refresh and at a terminal's end, and sends a
// tool_call_update when the text changed, until every terminal has ended,
// the agent updates the tool call's content again, or the session ends.
func (s *session) follow(sessionID, toolCallID json.RawMessage, items, sent []json.RawMessage, running bool) func() {
	key := string(sessionID) + "\x00" + string(toolCallID)
	s.mu.Lock()
	w := s.watches[key]
	if w == nil {
		w = &watch{}
		s.watches[key] = w
	}
	w.gen++
	gen := w.gen
	if !running {
		delete(s.watches, key)
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	current := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.watches[key] == w && w.gen == gen
	}
	every := s.p.Refresh
	if every <= 0 {
		every = 300 * time.Millisecond
	}
	return func() {
		s.spawn(func() {
			tick := time.NewTicker(every)
			defer tick.Stop()
			defer func() {
				s.mu.Lock()
				if s.watches[key] == w && w.gen == gen {
					delete(s.watches, key)
				}
				s.mu.Unlock()
			}()
			for {
				now, running, _ := s.render(items)
				if !current() {
					return
				}
				if !same(now, sent) {
					sent = now
					content, _ := json.Marshal(now)
					update, _ := json.Marshal(map[string]json.RawMessage{
						"sessionUpdate": json.RawMessage(`"tool_call_update"`),
						"toolCallId":    toolCallID,
						"content":       content,
					})
					params, _ := json.Marshal(map[string]json.RawMessage{"sessionId": sessionID, "update": update})
					s.toEditor.send(message{Method: "session/update", Params: params})
				}
				if !running {
					return
				}
				select {
				case <-s.ctx.Done():
					return
				case <-tick.C:
				case <-s.ended(items):
					// the last output and the exit status show at once
				}
			}
		})
	}
}

// ended returns a channel closed when one of the proxy's running
// terminals in items ends (nil when none runs: never ready).
func (s *session) ended(items []json.RawMessage) <-chan struct{} {
	for _, raw := range items {
		var it struct {
			Type       string `json:"type"`
			TerminalID string `json:"terminalId"`
		}
		if json.Unmarshal(raw, &it) != nil || it.Type != "terminal" {
			continue
		}
		if done := s.terms.Done(it.TerminalID); done != nil {
			select {
			case <-done:
			default:
				return done
			}
		}
	}
	return nil
}

func same(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if string(a[i]) != string(b[i]) {
			return false
		}
	}
	return true
}
