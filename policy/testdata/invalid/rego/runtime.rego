package cmdguard

ask contains msg if {
	opa.runtime().env.HOME
	msg := "home"
}
