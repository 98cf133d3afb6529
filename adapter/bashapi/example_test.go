package bashapi_test

import (
	"log"
	"log/slog"
	"net/http"
	"os"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// A /v1/bash server for a project, on loopback, with the access log on
// stderr: what `cmdguard serve` does (which also ends every command on
// SIGTERM with Server.Close and Guard.Close).
func ExampleNew() {
	g, err := cmdguard.Open("/path/to/project")
	if err != nil {
		log.Fatal(err) // an invalid policy is an error, never a silent default
	}
	api, err := bashapi.New(bashapi.Config{
		Guard:  g,
		Logger: slog.New(slog.NewJSONHandler(os.Stderr, nil)),
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", api))
}
