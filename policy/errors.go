package policy

import (
	"fmt"
	"strings"
)

// Error is a problem in a policy file, at a position in it. Col is 1 when
// only the line is known (YAML syntax errors).
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Errors is every problem found in a policy, in file order. Parse and Load
// return one as their error; use errors.As to reach the list.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
