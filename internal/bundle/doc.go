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
// document (the policy file's schema) at data.cmdguard.policy. Reading and
// verifying it is OPA's own code (package
// github.com/open-policy-agent/opa/v1/bundle): the .signatures.json JWT
// against the configured public key, the kid, every file's hash, no file
// unlisted and none missing. A bundle with no .signatures.json, or one
// that fails any of those checks, is refused: the reason is kept for
// cmdguard status and the bundle active before stays active.
//
// A Manager polls with If-None-Match (the ETag of the active bundle),
// keeps the last good bundle on disk (re-verified whenever it is read
// back) and reports, for every check, the policy in force: the active
// bundle's, or none, in which case the caller applies its floor.
package bundle
