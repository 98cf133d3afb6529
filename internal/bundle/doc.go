// Package bundle fetches, verifies and activates the signed OPA bundle a
// managed policy names:
//
//	bundle:
//	  url: https://policy.example.com/cmdguard/bundle.tar.gz
//	  public_key: keys/bundle.pem   # relative to the managed file
//	  key_id: default               # the kid the bundle is signed with
//	  poll: 60s
//
// The bundle is an ordinary OPA bundle (opa build --signing-key … -b DIR):
// Rego modules in package cmdguard, and optionally a cmdguard policy
// document (the policy file's schema) at data.cmdguard.policy.
// Downloading, reading and verifying it is OPA's own code: its bundle
// downloader (package github.com/open-policy-agent/opa/v1/download, over
// the REST client of .../v1/plugins/rest) sends If-None-Match with the
// active bundle's ETag, takes 304 Not Modified as "unchanged", and reads
// a 200's body with OPA's bundle reader (.../v1/bundle), which verifies
// the .signatures.json JWT against the configured public key, the kid,
// every file's hash, no file unlisted and none missing. A bundle with no
// .signatures.json, or one that fails any of those checks, is refused: the
// reason is kept for cmdguard status and the bundle active before stays
// active.
//
// A Manager runs the downloader once, synchronously, when a check finds a
// poll due (bounded by the configured timeout), keeps the last good
// bundle on disk (re-verified by OPA's reader whenever it is read back)
// and reports, for every check, the policy in force: the active bundle's,
// or none, in which case the caller applies its floor.
package bundle
