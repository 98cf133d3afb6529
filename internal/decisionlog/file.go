package decisionlog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// FileSink appends events as JSON lines to a file (mode 0600, its
// directory made 0700), and rotates it by size: past MaxBytes the file
// becomes path.1, path.1 path.2, …, up to Keep old files.
type FileSink struct {
	Path     string
	MaxBytes int64 // 10 MiB when zero
	Keep     int   // 3 when zero

	f    *os.File
	size int64
	// buf holds a batch's lines, enc writes into it: both reused, so
	// that a batch costs one write and no allocation of its own.
	buf bytes.Buffer
	enc *json.Encoder
}

// Name returns "file:" and the path.
func (s *FileSink) Name() string { return "file:" + s.Path }

func (s *FileSink) open() error {
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(s.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	s.f, s.size = f, fi.Size()
	return nil
}

// Write appends batch, one JSON object a line.
func (s *FileSink) Write(_ context.Context, batch []Event) error {
	if s.f == nil {
		if err := s.open(); err != nil {
			return err
		}
	}
	if s.enc == nil {
		s.enc = json.NewEncoder(&s.buf)
		s.enc.SetEscapeHTML(false)
	}
	s.buf.Reset()
	for i := range batch {
		if err := s.enc.Encode(&batch[i]); err != nil {
			return err
		}
	}
	n, err := s.f.Write(s.buf.Bytes())
	s.size += int64(n)
	if s.buf.Cap() > 4<<20 {
		s.buf = bytes.Buffer{} // a batch of huge commands: do not keep the memory
		s.enc = nil
	}
	if err != nil {
		return err
	}
	if s.size >= s.max() {
		return s.rotate()
	}
	return nil
}

func (s *FileSink) max() int64 {
	if s.MaxBytes > 0 {
		return s.MaxBytes
	}
	return 10 << 20
}

func (s *FileSink) rotate() error {
	s.f.Close()
	s.f = nil
	keep := s.Keep
	if keep <= 0 {
		keep = 3
	}
	os.Remove(s.Path + "." + strconv.Itoa(keep))
	for i := keep - 1; i >= 1; i-- {
		os.Rename(s.Path+"."+strconv.Itoa(i), s.Path+"."+strconv.Itoa(i+1))
	}
	if err := os.Rename(s.Path, s.Path+".1"); err != nil {
		return fmt.Errorf("rotate: %w", err)
	}
	return nil
}

// Close closes the file.
func (s *FileSink) Close(context.Context) error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}
