// Package decisionlog records cmdguard's decisions: one event per check or
// run, with the command masked ([Mask]), sent to a local JSON-lines file
// (rotated by size), to a collector that accepts OPA's decision-log HTTP
// format (a gzip'd JSON array POSTed), and to OpenTelemetry logs over
// OTLP/HTTP.
//
// Sending never blocks a check: [Logger.LogDecision] copies the event
// into each sink's bounded queue and returns; a full queue drops the
// event and counts it. Each sink has one goroutine that writes batches.
// [Logger.Health] reports what each sink sent, dropped and its last
// error. The package never prints.
package decisionlog
