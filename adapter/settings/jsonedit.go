package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// A jnode is one JSON value of a settings file with its byte span, so that
// an edit can insert or cut text and keep every other byte as it was.
type jnode struct {
	start, end int  // the value's bytes: data[start:end]
	kind       byte // '{', '[' or 0 for a scalar
	keys       []string
	keyStart   []int    // where each member's key begins (objects)
	vals       []*jnode // members' values (objects) or elements (arrays)
}

func (n *jnode) get(key string) *jnode {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// parseJSON reads data as one JSON value with the spans of every value.
// Comments are not JSON: a file with them is an error.
func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec, data)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return n, nil
}

// skip returns the offset of the next value or key at or after off.
func skip(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n:,", data[off]) >= 0 {
		off++
	}
	return off
}

func parseValue(dec *json.Decoder, data []byte) (*jnode, error) {
	n := &jnode{start: skip(data, int(dec.InputOffset()))}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		n.end = int(dec.InputOffset())
		return n, nil
	}
	n.kind = byte(d)
	for dec.More() {
		if n.kind == '{' {
			ks := skip(data, int(dec.InputOffset()))
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			n.keys, n.keyStart = append(n.keys, key), append(n.keyStart, ks)
		}
		v, err := parseValue(dec, data)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return nil, err
	}
	n.end = int(dec.InputOffset())
	return n, nil
}

// An edit replaces data[from:to] with text.
type edit struct {
	from, to int
	text     string
}

func apply(data []byte, e edit) []byte {
	out := make([]byte, 0, len(data)+len(e.text))
	out = append(out, data[:e.from]...)
	out = append(out, e.text...)
	return append(out, data[e.to:]...)
}

// layout is how a file is indented: the unit, and whether it is written
// on one line.
type layout struct {
	indent  string
	oneLine bool
}

func layoutOf(data []byte) layout {
	if !bytes.ContainsRune(bytes.TrimSpace(data), '\n') && len(bytes.TrimSpace(data)) > 2 {
		return layout{oneLine: true}
	}
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return layout{indent: line[:len(line)-len(trimmed)]}
		}
	}
	return layout{indent: "  "}
}

// lineIndent returns the white space that starts the line holding off.
func lineIndent(data []byte, off int) string {
	ls := bytes.LastIndexByte(data[:off], '\n') + 1
	i := ls
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	return string(data[ls:i])
}

// render writes v as JSON for a place whose line is indented by base.
func (l layout) render(v any, base string) (string, error) {
	if l.oneLine {
		b, err := json.Marshal(v)
		return string(b), err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(base, l.indent)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// nest wraps v in objects, one per key: nest(v, "a", "b") = {"a":{"b":v}}.
func nest(v any, keys ...string) any {
	for i := len(keys) - 1; i >= 0; i-- {
		v = map[string]any{keys[i]: v}
	}
	return v
}

// insertInto returns the edit that adds member key: v to object obj, or,
// with key "", element v to array obj, as the last one.
func insertInto(data []byte, l layout, obj *jnode, key string, v any) (edit, error) {
	close := obj.end - 1 // the closing } or ]
	base := lineIndent(data, obj.start)
	inner := base + l.indent
	val, err := l.render(v, inner)
	if err != nil {
		return edit{}, err
	}
	item := val
	if key != "" {
		k, _ := json.Marshal(key)
		sep := ": "
		if l.oneLine {
			sep = ":"
		}
		item = string(k) + sep + val
	}
	if len(obj.vals) == 0 {
		if l.oneLine {
			return edit{obj.start + 1, close, item}, nil
		}
		return edit{obj.start + 1, close, "\n" + inner + item + "\n" + base}, nil
	}
	last := obj.vals[len(obj.vals)-1].end
	if l.oneLine {
		return edit{last, last, "," + item}, nil
	}
	return edit{last, last, ",\n" + inner + item}, nil
}

// removeAt returns the edit that cuts member or element i of container c
// with the comma and white space that belong to it.
func removeAt(data []byte, c *jnode, i int) edit {
	from := c.vals[i].start
	if c.kind == '{' {
		from = c.keyStart[i]
	}
	to := c.vals[i].end
	switch {
	case len(c.vals) == 1: // the only one: leave the container empty
		return edit{c.start + 1, c.end - 1, ""}
	case i == len(c.vals)-1: // the last: cut from the end of the one before
		return edit{c.vals[i-1].end, to, ""}
	default: // cut up to the start of the next one
		next := c.vals[i+1].start
		if c.kind == '{' {
			next = c.keyStart[i+1]
		}
		return edit{from, next, ""}
	}
}

// value decodes a node's bytes.
func (n *jnode) value(data []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data[n.start:n.end]))
	dec.UseNumber()
	err := dec.Decode(&v)
	return v, err
}

// errNotObject is the error for a settings file whose top level is not an
// object.
func errNotObject(path []string) error {
	return fmt.Errorf("%s is not a JSON object", strings.Join(path, "."))
}
