package serviceaccount

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// clustersPath is what follows the hub's base URL in a logical cluster's
// issuer, as in the URL the logical cluster is served at.
const clustersPath = "/clusters/"

// Issuers names the issuer of each logical cluster's tokens: the URL the
// logical cluster is served at, under which it serves the OIDC discovery
// document of its issuer, as OIDC requires. An issuer per logical cluster
// keeps a token of one from verifying as another's with a standard OIDC
// verifier, though all are signed with the hub's one key.
type Issuers struct {
	base string
}

// NewIssuers makes the issuers under base, an https URL without query or
// fragment, as kube-apiserver requires of --service-account-issuer for
// discovery.
func NewIssuers(base string) (Issuers, error) {
	u, err := url.Parse(base)
	if err != nil {
		return Issuers{}, fmt.Errorf("service account issuer %q: %w", base, err)
	}
	if u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return Issuers{}, fmt.Errorf("service account issuer %q must be an https URL without query or fragment", base)
	}
	return Issuers{base: strings.TrimSuffix(u.String(), "/")}, nil
}

// For is the issuer of cluster's tokens.
func (i Issuers) For(cluster logicalcluster.Name) string {
	return i.base + clustersPath + string(cluster)
}

// hubIssuer reports whether iss is the issuer of a hub token of cluster,
// as some hub issued it: the issuer of cluster under any base URL, or the
// issuer all logical clusters shared before. The base is not checked:
// replicas reached at different addresses, or a hub that moved, issue
// under different ones, and only the hub's own key signs the tokens, the
// signature being what proves the hub issued one.
func hubIssuer(iss, cluster string) bool {
	if iss == legacyIssuer {
		return true
	}
	if cluster == "" {
		return false
	}
	u, err := url.Parse(iss)
	return err == nil && u.Scheme == "https" && u.RawQuery == "" && u.Fragment == "" && strings.HasSuffix(u.Path, clustersPath+cluster)
}
