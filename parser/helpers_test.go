package parser

import (
	"testing"

	"github.com/cmdguard/cmdguard/internal/testneed"
)

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }
