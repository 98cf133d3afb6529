package cmdguard

import data.unused

deny contains "x" if {
	y := 1
	input.source == "x"
}
