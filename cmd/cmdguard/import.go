package main

func (c *cli) importRules(args []string) int {
	return c.errorf("import: not yet")
}
