package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cmdguard/cmdguard/policy"
)

func (c *cli) init(args []string) int {
	fs := c.flagSet("init")
	nested := fs.Bool("nested", false, "write the policy even though a policy above DIR governs it (the new one replaces it, deny rules too, under DIR)")
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("init: %v", err)
	}
	dir := "."
	if fs.NArg() > 1 {
		return c.errorf("init: one DIR at most")
	} else if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	path := filepath.Join(dir, policy.FileName)
	// A policy above DIR governs it today; a new one in DIR would replace
	// it there (the first .cmdguard.yaml walking up wins; policies are not
	// merged), silently dropping its deny rules for DIR's subtree.
	if _, err := os.Lstat(path); err != nil {
		outer, ok, err := policy.Find(dir)
		switch {
		case err != nil:
			return c.errorf("init: %v", err)
		case ok && !*nested:
			return c.errorf("init: %s is already governed by %s: a policy in %s would replace it there, its deny rules too (policies are not merged). Add to that policy instead, or pass --nested to write %s anyway", dir, outer, dir, path)
		case ok:
			fmt.Fprintf(c.stderr, "cmdguard: init: %s replaces %s for everything under %s\n", path, outer, dir)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return c.errorf("init: %s already exists; not overwriting it", path)
		}
		return c.errorf("init: %v", err)
	}
	_, err = f.Write(policy.StarterYAML())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return c.errorf("init: write %s: %v", path, err)
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", path)
	return 0
}
