//go:build !linux

package exec

// ForceSweep does nothing: outside Linux every command ends by the sweep.
func ForceSweep() (restore func()) { return func() {} }
