package cmdguard

deny contains msg if {
	some c in input.commands
	net.lookup_ip_addr("example.com")
	msg := c.argv[0]
}
