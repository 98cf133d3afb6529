//go:build ignore

// argv prints its arguments, each followed by a NUL byte, for the
// differential test of the parser against bash.
package main

import "os"

func main() {
	for _, a := range os.Args {
		os.Stdout.WriteString(a + "\x00")
	}
}
