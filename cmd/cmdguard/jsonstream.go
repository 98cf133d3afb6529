package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// writeRunJSON writes the result of run as writeJSON does (the same
// bytes), except that the captured stdout and stderr are escaped and
// written a piece at a time instead of being copied into a string and
// then into the encoder's buffer and its indented copy: memory stays
// near the output limit itself whatever the output holds (a NUL is six
// bytes escaped).
func writeRunJSON(w io.Writer, out runResult, stdout, stderr []byte) {
	out.Stdout, out.Stderr = "", ""
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(w, "{\"decision\":\"deny\",\"error\":%q}\n", err.Error())
		return
	}
	// The object as encoded with empty streams, split where they go.
	const so, se = "\n  \"stdout\": \"\",", "\n  \"stderr\": \"\","
	b := head.Bytes()
	i := bytes.Index(b, []byte(so))
	j := bytes.Index(b, []byte(se))
	if i < 0 || j != i+len(so) {
		fmt.Fprintf(w, "{\"decision\":\"deny\",\"error\":%q}\n", "cannot lay out the result")
		return
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(b[:i])
	bw.WriteString(so[:len(so)-2])
	writeJSONString(bw, stdout)
	bw.WriteString(`",`)
	bw.WriteString(se[:len(se)-2])
	writeJSONString(bw, stderr)
	bw.WriteString(`",`)
	bw.Write(b[j+len(se):])
	bw.Flush()
}

// writeJSONString writes the body of a JSON string holding data (without
// the quotes), escaped exactly as encoding/json does without HTML
// escaping, in pieces cut at UTF-8 sequence starts so that each piece
// escapes as it would within the whole.
func writeJSONString(w io.Writer, data []byte) {
	const piece = 32 << 10
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for len(data) > 0 {
		n := min(piece, len(data))
		for k := 0; n < len(data) && k < utf8.UTFMax-1 && !utf8.RuneStart(data[n]); k++ {
			n-- // no valid sequence crosses a sequence start
		}
		buf.Reset()
		enc.Encode(string(data[:n])) // a string cannot fail to encode
		e := buf.Bytes()
		w.Write(e[1 : len(e)-2]) // without the quotes and the newline
		data = data[n:]
	}
}
