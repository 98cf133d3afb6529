package bashapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// A detailItem is one entry of FastAPI's validation error
// {"detail": [{"loc": [...], "msg": "...", "type": "..."}]}.
type detailItem struct {
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
}

// maxSeconds bounds every duration a request gives (a year).
const maxSeconds = 365 * 24 * 3600

// fields reads a JSON object body field by field, collecting errors in
// FastAPI's shape. Unknown fields are ignored, as FastAPI does.
type fields struct {
	m    map[string]json.RawMessage
	errs []detailItem
}

// parseBody parses body as one JSON object.
func parseBody(body []byte) *fields {
	f := &fields{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		if len(bytes.TrimSpace(body)) > 0 && bytes.TrimSpace(body)[0] != '{' && json.Valid(body) {
			f.fail(nil, "Input should be a valid dictionary or object to extract fields from", "model_attributes_type")
		} else {
			f.fail(nil, "JSON decode error: "+err.Error(), "json_invalid")
		}
		return f
	}
	if dec.More() {
		f.fail(nil, "JSON decode error: data after the object", "json_invalid")
	}
	if m == nil {
		f.fail(nil, "Input should be a valid dictionary or object to extract fields from", "model_attributes_type")
	}
	f.m = m
	return f
}

func (f *fields) fail(name any, msg, typ string) {
	loc := []any{"body"}
	if name != nil {
		loc = append(loc, name)
	}
	f.errs = append(f.errs, detailItem{Loc: loc, Msg: msg, Type: typ})
}

// raw returns the field's JSON, or false when it is absent or null.
func (f *fields) raw(name string) (json.RawMessage, bool) {
	v, ok := f.m[name]
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// str reads a string field; a required field must be present and not null.
func (f *fields) str(name string, required bool) string {
	v, ok := f.raw(name)
	if !ok {
		if required && f.m != nil {
			f.fail(name, "Field required", "missing")
		}
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		f.fail(name, "Input should be a valid string", "string_type")
		return ""
	}
	if strings.IndexByte(s, 0) >= 0 {
		f.fail(name, "Value error, a NUL character cannot be passed to bash", "value_error")
	}
	return s
}

func (f *fields) boolean(name string, def bool) bool {
	v, ok := f.raw(name)
	if !ok {
		return def
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		f.fail(name, "Input should be a valid boolean", "bool_type")
	}
	return b
}

// seconds reads a nullable number of seconds; it must be positive.
func (f *fields) seconds(name string) (float64, bool) {
	v, ok := f.raw(name)
	if !ok {
		return 0, false
	}
	var n float64
	if err := json.Unmarshal(v, &n); err != nil {
		f.fail(name, "Input should be a valid number", "float_type")
		return 0, false
	}
	switch {
	case n <= 0 || math.IsNaN(n):
		f.fail(name, "Input should be greater than 0", "greater_than")
		return 0, false
	case n > maxSeconds:
		f.fail(name, fmt.Sprintf("Input should be less than or equal to %d", maxSeconds), "less_than_equal")
		return 0, false
	}
	return n, true
}

// integer reads a non-negative integer field.
func (f *fields) integer(name string, def int64) int64 {
	v, ok := f.raw(name)
	if !ok {
		return def
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil || v[0] == '"' {
		f.fail(name, "Input should be a valid integer", "int_type")
		return def
	}
	i, err := n.Int64()
	if err != nil {
		fl, ferr := n.Float64()
		if ferr != nil || fl != math.Trunc(fl) || math.Abs(fl) > 1<<53 {
			f.fail(name, "Input should be a valid integer", "int_from_float")
			return def
		}
		i = int64(fl)
	}
	if i < 0 {
		f.fail(name, "Input should be greater than or equal to 0", "greater_than_equal")
		return def
	}
	return i
}

// env reads an object of string values as KEY=value entries, sorted.
func (f *fields) env(name string) []string {
	v, ok := f.raw(name)
	if !ok {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		f.fail(name, "Input should be a valid dictionary", "dict_type")
		return nil
	}
	out := make([]string, 0, len(m))
	for k, raw := range m {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
			f.errs = append(f.errs, detailItem{Loc: []any{"body", name, k}, Msg: "Input should be a valid string", Type: "string_type"})
			continue
		}
		if k == "" || strings.ContainsAny(k, "=\x00") || !utf8.ValidString(k) || strings.IndexByte(s, 0) >= 0 {
			f.errs = append(f.errs, detailItem{Loc: []any{"body", name, k}, Msg: "Value error, a variable name must be non-empty without '=' or NUL, and a value without NUL", Type: "value_error"})
			continue
		}
		out = append(out, k+"="+s)
	}
	slices.Sort(out)
	return out
}

// dir reads an absolute directory path field.
func (f *fields) dir(name string) string {
	d := f.str(name, false)
	if d != "" && !filepath.IsAbs(d) {
		f.fail(name, "Value error, "+name+" must be an absolute path", "value_error")
		return ""
	}
	return d
}

// id reads a session or command id: empty, or a short word.
func (f *fields) id(name string, required bool) string {
	s := f.str(name, required)
	if s != "" && !validID(s) {
		f.fail(name, "Value error, an id is 1 to 128 letters, digits, '-', '_' or '.'", "value_error")
		return ""
	}
	return s
}

func validID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}
