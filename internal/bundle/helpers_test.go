package bundle

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"testing"

	opabundle "github.com/open-policy-agent/opa/v1/bundle"

	"github.com/open-policy-agent/opa/ast"
)

// Test helpers shared by the package's test files.

// build writes a bundle with OPA's own writer, signed with priv ("" for
// unsigned). modules maps paths to Rego.
func build(t *testing.T, priv, rev string, data map[string]any, modules map[string]string) []byte {
	t.Helper()
	b := opabundle.Bundle{Manifest: opabundle.Manifest{Revision: rev}, Data: data}
	if b.Data == nil {
		b.Data = map[string]any{}
	}
	for p, text := range modules {
		b.Modules = append(b.Modules, opabundle.ModuleFile{URL: p, Path: p, Raw: []byte(text), Parsed: ast.MustParseModuleWithOpts(text, ast.ParserOptions{RegoVersion: ast.RegoV1})})
	}
	if priv != "" {
		if err := b.GenerateSignature(opabundle.NewSigningConfig(priv, "RS256", ""), "default", false); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := opabundle.NewWriter(&buf).Write(b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// key returns an RSA key pair as PEM.
func key(t *testing.T) (priv, pub string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
