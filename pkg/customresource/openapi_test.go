package customresource

import (
	"crypto/sha256"
	"testing"
)

func TestAcceptsProtobuf(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                 false,
		"application/json": false,
		"application/com.github.proto-openapi.spec.v3.v1.0+protobuf":                   true,
		"application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json": true,
		"application/json, application/com.github.proto-openapi.spec.v3.v1.0+protobuf": false,
		"text/html, */*": false,
	} {
		if got := acceptsProtobuf(accept, protobufOpenAPI); got != want {
			t.Errorf("acceptsProtobuf(%q) = %t", accept, got)
		}
	}
}

// A group version's hash depends on the definitions serving it, not on
// their order, and on the version.
func TestGroupVersionHash(t *testing.T) {
	a, b := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	ab := groupVersionDocs{hashes: [][sha256.Size]byte{a, b}}.hash("v1")
	if ba := (groupVersionDocs{hashes: [][sha256.Size]byte{b, a}}).hash("v1"); ab != ba {
		t.Errorf("the order of the definitions changes the hash: %s, %s", ab, ba)
	}
	if v2 := (groupVersionDocs{hashes: [][sha256.Size]byte{a, b}}).hash("v2"); v2 == ab {
		t.Error("v1 and v2 hash the same")
	}
	if only := (groupVersionDocs{hashes: [][sha256.Size]byte{a}}).hash("v1"); only == ab {
		t.Error("one definition hashes as two")
	}
}
