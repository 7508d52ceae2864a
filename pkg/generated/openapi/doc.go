// Package openapi holds the generated OpenAPI definitions of the types the
// hub serves; hack/update-codegen.sh writes zz_generated.openapi.go.
package openapi
