package cmdguard

deny contains msg if {
	x == 1
	msg := "x"
}
