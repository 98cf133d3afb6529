package cmdguard

deny contains msg if {
	some c in input.commands
	http.send({"method": "GET", "url": "https://example.com"})
	msg := c.argv[0]
}
