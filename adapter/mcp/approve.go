package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// askKey is the InputRequests key of cmdguard's approval question.
const askKey = "cmdguard_approval"

// The answers of the approval question.
const (
	answerOnce   = "once"
	answerAlways = "always"
	answerNo     = "no"
	// answerCancel is a dismissed question (not an answer the form offers).
	answerCancel = "cancel"
)

// askTTL is how long an approval question may stay unanswered.
const askTTL = 15 * time.Minute

// maxAsks bounds the questions waiting for an answer.
const maxAsks = 256

// asks are the approval questions waiting for an answer: the opaque
// request state handed to the client, mapped to what was asked.
type asks struct {
	mu sync.Mutex
	m  map[string]pendingAsk
}

type pendingAsk struct {
	key     [32]byte // the call the question is about
	always  bool     // whether "always" was offered
	expires time.Time
}

func (a *asks) put(key [32]byte, always bool) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on Linux; the tool wrapper refuses
	}
	state := hex.EncodeToString(b[:])
	now := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]pendingAsk{}
	}
	for k, v := range a.m {
		if now.After(v.expires) || len(a.m) >= maxAsks {
			delete(a.m, k)
		}
	}
	a.m[state] = pendingAsk{key: key, always: always, expires: now.Add(askTTL)}
	return state
}

// take removes and returns the question of state, if it is about key.
func (a *asks) take(state string, key [32]byte) (pendingAsk, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, ok := a.m[state]
	if !ok {
		return q, errors.New("it answers no question cmdguard asked (or one already answered or expired)")
	}
	delete(a.m, state) // used up by any answer, right or wrong
	if q.key != key {
		return q, errors.New("it was given for a different command, directory or timeout")
	}
	if time.Now().After(q.expires) {
		return q, errors.New("the question expired")
	}
	return q, nil
}

// callKey identifies what an approval is for: the tool and the exact
// command, directory and timeout it runs with.
func callKey(tool string, rr cmdguard.RunRequest) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%q\x00%q\x00%q\x00%d", tool, rr.Command, rr.Cwd, rr.Timeout)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// gated is what the gate made of a call: a started process, a question
// for the person (input), or a refusal.
type gated struct {
	d       cmdguard.Decision
	p       *exec.Process
	input   *sdk.CallToolResult
	refused *sdk.CallToolResult
	note    string
}

// gate checks rr and starts it. An ask becomes an approval question
// (elicitation) when the client can put one to a person; the call comes
// back with the answer (the SDK's multi-round-trip requests, which it
// turns into elicitation/create for older clients) and runs if the answer
// is yes. Everything else that is not an allow refuses.
func (s *Server) gate(ctx context.Context, req *sdk.CallToolRequest, tool string, rr cmdguard.RunRequest) (out gated) {
	key := callKey(tool, rr)
	answer := ""
	if len(req.Params.InputResponses) > 0 || req.Params.RequestState != "" {
		var err error
		answer, err = s.answer(req, key)
		if err != nil {
			out.d = cmdguard.Decision{Verdict: cmdguard.Deny, Reasons: []cmdguard.Reason{}}
			out.refused = textResult(true, "cmdguard did not run this command: the approval answer was not accepted: "+err.Error())
			return out
		}
	}
	var alwaysErr error
	rr.Approve = func(d cmdguard.Decision) bool {
		switch answer {
		case answerOnce:
			return true
		case answerAlways:
			prefixes, err := s.g.AllowPrefixes(d)
			if err == nil {
				err = s.g.AddAllow(prefixes)
			}
			if err != nil {
				alwaysErr = err
			} else {
				for _, p := range prefixes {
					out.note += fmt.Sprintf("the user allowed %q from now on (added to %s); ", strings.Join(p, " "), s.g.Policy().Path())
				}
			}
			return true
		}
		return false
	}
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	d, p, err := s.g.Start(cctx, rr)
	out.d = d
	if alwaysErr != nil {
		out.note = "the user approved it, but it could not be added to the policy: " + alwaysErr.Error()
	}
	out.note = strings.TrimSuffix(out.note, "; ")
	switch {
	case err == nil:
		out.p = p
		return out
	case !errors.Is(err, cmdguard.ErrRefused):
		out.d = cmdguard.Decision{Verdict: cmdguard.Deny, Reasons: d.Reasons}
		if out.d.Reasons == nil {
			out.d.Reasons = []cmdguard.Reason{}
		}
		out.refused = textResult(true, "cmdguard could not start this command: "+err.Error())
		return out
	case d.Verdict == cmdguard.Ask && answer == "":
		if canElicit(req) {
			out.input = s.question(rr.Command, d, key)
			return out
		}
		out.refused = s.refusal(rr.Command, d, "cmdguard did not run this command: it needs a person's approval (verdict ask), and this MCP client cannot ask one (it does not support elicitation).")
		return out
	case d.Verdict == cmdguard.Ask && answer == answerNo:
		out.refused = s.refusal(rr.Command, d, "cmdguard did not run this command: it needs a person's approval (verdict ask), and the user (or the MCP client on their behalf) declined it.")
		return out
	case d.Verdict == cmdguard.Ask && answer == answerCancel:
		out.refused = s.refusal(rr.Command, d, "cmdguard did not run this command: it needs a person's approval (verdict ask), and the question was cancelled (dismissed, or the MCP client could not show it).")
		return out
	}
	out.refused = s.refusal(rr.Command, d, refusedText(d))
	return out
}

// answer reads the person's answer from a call that came back with one.
func (s *Server) answer(req *sdk.CallToolRequest, key [32]byte) (string, error) {
	q, err := s.asks.take(req.Params.RequestState, key)
	if err != nil {
		return "", err
	}
	if len(req.Params.InputResponses) != 1 {
		return "", fmt.Errorf("want one answer, got %d", len(req.Params.InputResponses))
	}
	r, ok := req.Params.InputResponses[askKey].(*sdk.ElicitResult)
	if !ok {
		return "", fmt.Errorf("no answer to %q", askKey)
	}
	switch r.Action {
	case "decline":
		return answerNo, nil
	case "accept":
	default: // cancel, or anything else
		return answerCancel, nil
	}
	switch a, _ := r.Content["answer"].(string); a {
	case answerOnce, answerNo:
		return a, nil
	case answerAlways:
		if q.always {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown answer %v", r.Content["answer"])
}

// clientName returns the name the client gave in initialize
// (clientInfo.name), for the decision log; "" when it gave none.
func clientName(req *sdk.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	if ip := req.Session.InitializeParams(); ip != nil && ip.ClientInfo != nil {
		return ip.ClientInfo.Name
	}
	return ""
}

// canElicit reports whether the client can put a form to a person.
func canElicit(req *sdk.CallToolRequest) bool {
	if req == nil || req.Session == nil {
		return false
	}
	ip := req.Session.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return false
	}
	e := ip.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil // neither: form, for older clients
}

// question is the input-required result that asks the person.
func (s *Server) question(command string, d cmdguard.Decision, key [32]byte) *sdk.CallToolResult {
	var b strings.Builder
	b.WriteString("An AI agent wants to run this command, and the project's cmdguard policy asks you first:\n\n")
	s.g.Render(&b, command, d)
	enum := []any{answerOnce, answerNo}
	names := []any{"Allow once", "No"}
	always := false
	if prefixes, err := s.g.AllowPrefixes(d); err == nil && s.g.Policy().Path() != "" {
		always = true
		var ps []string
		for _, p := range prefixes {
			ps = append(ps, fmt.Sprintf("%q", strings.Join(p, " ")))
		}
		enum = []any{answerOnce, answerAlways, answerNo}
		names = []any{"Allow once", "Allow always (adds " + strings.Join(ps, ", ") + " to allow: in " + s.g.Policy().Path() + ")", "No"}
	}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"answer": map[string]any{
				"type":        "string",
				"title":       "Run it?",
				"description": "Allow once runs it this time; always also adds it to the policy's allow list; no refuses it.",
				"enum":        enum,
				"enumNames":   names,
				"default":     answerNo,
			},
		},
		"required": []any{"answer"},
	}
	return &sdk.CallToolResult{
		InputRequests: sdk.InputRequestMap{askKey: &sdk.ElicitParams{Mode: "form", Message: b.String(), RequestedSchema: schema}},
		RequestState:  s.asks.put(key, always),
	}
}
