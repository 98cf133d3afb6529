package acp_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/acp"
)

// A session/update as agents send them many times a turn: a chunk of the
// agent's message, and a tool call update with some output.
var benchUpdates = map[string]string{
	"message_chunk":  `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"I'll run the tests now and look at what fails, then fix the parser."}}}}` + "\n",
	"tool_call_1KiB": `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"tool_call_update","toolCallId":"toolu_01","status":"completed","content":[{"type":"content","content":{"type":"text","text":"` + string(make1K()) + `"}}]}}}` + "\n",
}

func make1K() []byte {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// BenchmarkForward measures one session/update going from the agent to
// the editor: over one OS pipe (direct), and through Proxy (two OS pipes
// and the proxy's read, parse and write). Each op is one message written
// and read back whole: the latency the proxy adds.
func BenchmarkForward(b *testing.B) {
	for name, line := range benchUpdates {
		b.Run("direct/"+name, func(b *testing.B) {
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			benchLoop(b, w, bufio.NewReader(r), line)
		})
		b.Run("proxy/"+name, func(b *testing.B) {
			g, err := cmdguard.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			agentOutR, agentOutW, _ := os.Pipe() // agent → proxy
			editorR, editorW, _ := os.Pipe()     // proxy → editor
			editorInR, editorInW, _ := os.Pipe() // editor → proxy (idle)
			agentInR, agentInW, _ := os.Pipe()   // proxy → agent (idle)
			go io.Copy(io.Discard, agentInR)
			done := make(chan struct{})
			go func() {
				(&acp.Proxy{Guard: g}).Run(context.Background(), editorInR, editorW, agentInW, agentOutR)
				close(done)
			}()
			benchLoop(b, agentOutW, bufio.NewReader(editorR), line)
			b.StopTimer()
			agentOutW.Close()
			<-done
			editorInW.Close()
			for _, f := range []*os.File{agentOutR, editorR, editorW, editorInR, agentInR} {
				f.Close()
			}
		})
	}
}

func benchLoop(b *testing.B, w io.Writer, r *bufio.Reader, line string) {
	msg := []byte(line)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Write(msg); err != nil {
			b.Fatal(err)
		}
		got, err := r.ReadSlice('\n')
		if err != nil || len(got) < len(msg)-2 {
			b.Fatalf("read %d bytes, %v", len(got), err)
		}
	}
}
