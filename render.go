package cmdguard

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Render writes d for people, as the CLI and every adapter show it: the
// verdict, then each reason that decided it — "line:col: verdict: rule:
// message [source]" — with the command's line, a caret under the position
// and a hint (see [Guard.HowToAllow]): what would change the verdict, checked by
// evaluating the command again with it followed, or what to do instead
// when nothing in the policy can; then, one line each,
// the reasons that would matter once those are gone. command is the
// checked source. Control characters in the command and in messages are
// escaped, so that what a person reads is not rewritten by the terminal.
// g may be nil (hints then name no policy file).
func (g *Guard) Render(w io.Writer, command string, d Decision) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", d.Verdict)
	lines := strings.Split(command, "\n")
	var also []Reason
	for _, r := range d.Reasons {
		switch {
		case r.Verdict == Allow && d.Verdict != Allow:
			continue // not a cause
		case r.Verdict != d.Verdict:
			also = append(also, r)
			continue
		}
		b.WriteString(FormatReason(r))
		b.WriteByte('\n')
		if d.Verdict == Allow {
			continue
		}
		if r.Pos.Line > 0 && r.Pos.Line <= len(lines) {
			line := clipLine(lines[r.Pos.Line-1], r.Pos.Col-1)
			fmt.Fprintf(&b, "    %s\n    %s^\n", printable(line.text), pad(line.text, line.col))
		}
		if h := g.HowToAllow(r, d); h != "" {
			fmt.Fprintf(&b, "    hint: %s\n", h)
		}
	}
	if len(also) > 0 {
		b.WriteString("also:\n")
		for _, r := range also {
			fmt.Fprintf(&b, "  %s\n", FormatReason(r))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// FormatReason renders r on one line: "line:col: verdict: rule: message
// [source]" (without the position when it has none). Control characters
// in the message are escaped as in Go strings (\x1b, \n), and a message
// longer than [MaxMessage] bytes is cut, saying how long it was.
func FormatReason(r Reason) string {
	var b strings.Builder
	if r.Pos.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", r.Pos.Line, r.Pos.Col)
	}
	fmt.Fprintf(&b, "%s: %s: %s [%s]", r.Verdict, r.Rule, TerminalSafe(r.Message), TerminalSafe(r.Source))
	return b.String()
}

// MaxMessage is the longest message [FormatReason] and [TerminalSafe] print whole.
const MaxMessage = 400

// TerminalSafe returns s fit to print on one line of a terminal: control
// characters, invalid UTF-8 and the line-break look-alikes U+2028 and
// U+2029 escaped as in a Go string literal, and anything past
// [MaxMessage] bytes cut, with the full length said.
func TerminalSafe(s string) string {
	cut := ""
	if len(s) > MaxMessage {
		n := MaxMessage
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		cut = fmt.Sprintf("… (%d bytes in all)", len(s))
		s = s[:n]
	}
	if !needsEscape(s) {
		return s + cut
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String() + cut
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}

// Summary says d in one line for a model or a log: the verdict and the
// reasons that decided it, "deny: 1:5 ignore.denied: '.env' is ignored by
// .cmdguardignore:1 (.env); …". Control characters are escaped.
func (d Decision) Summary() string {
	var parts []string
	for _, r := range d.Reasons {
		if r.Verdict != d.Verdict {
			continue
		}
		p := r.Rule + ": " + TerminalSafe(r.Message)
		if r.Pos.Line > 0 {
			p = fmt.Sprintf("%d:%d %s", r.Pos.Line, r.Pos.Col, p)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return d.Verdict.String()
	}
	return d.Verdict.String() + ": " + strings.Join(parts, "; ")
}

// A clipped line is the part of a long command line shown around a caret.
type clipped struct {
	text string
	col  int // the caret's byte offset in text
}

// clipLine cuts a line longer than MaxMessage to a window around byte
// offset col, marking the cuts, so that a megabyte word is not echoed.
func clipLine(line string, col int) clipped {
	col = min(max(col, 0), len(line))
	if len(line) <= MaxMessage {
		return clipped{line, col}
	}
	from := max(col-MaxMessage/2, 0)
	for from > 0 && !utf8.RuneStart(line[from]) {
		from--
	}
	to := min(from+MaxMessage, len(line))
	for to < len(line) && !utf8.RuneStart(line[to]) {
		to++
	}
	text, at := line[from:to], col-from
	if from > 0 {
		text, at = "…"+text, at+len("…")
	}
	if to < len(line) {
		text += fmt.Sprintf("… (%d bytes in all)", len(line))
	}
	return clipped{text, at}
}

// pad returns white space as wide as the first n bytes of line, keeping
// tabs so that the caret lines up.
func pad(line string, n int) string {
	n = min(max(n, 0), len(line))
	var b strings.Builder
	for _, r := range line[:n] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// printable replaces control characters and the line-break look-alikes
// with '?', one for one, so that what a person reviews is not rewritten by
// the terminal and the caret still lines up.
func printable(line string) string {
	return strings.Map(func(r rune) rune {
		if r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029') {
			return '?'
		}
		return r
	}, line)
}
