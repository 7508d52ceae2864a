package serviceaccount

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	jose "gopkg.in/go-jose/go-jose.v2"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The paths of the OIDC discovery document and of the key set, in each
// logical cluster, as kube-apiserver serves them.
const (
	OpenIDConfigPath = "/.well-known/openid-configuration"
	JWKSPath         = "/openid/v1/jwks"
)

// cacheControl is kube-apiserver's: its keys are static too.
const cacheControl = "public, max-age=3600"

// Discovery serves each logical cluster's OIDC discovery document, which
// names its issuer, and the key set that verifies its tokens, so that a
// relying party outside the hub can verify them as it verifies a
// cluster's. Both are answered from the logical cluster in the request's
// context; the key set is the same for all, the issuer is not.
type Discovery struct {
	issuers Issuers
	// jwksBase is where clients reach this hub, for the key set's URL.
	jwksBase url.URL
	keys     []byte
	algs     []string
}

// NewDiscovery serves the issuers' documents, each pointing at the key
// set of key on this hub at externalAddress (host:port), as
// kube-apiserver builds jwks_uri from its external address.
func NewDiscovery(issuers Issuers, externalAddress string, key *ecdsa.PublicKey) (*Discovery, error) {
	kid, err := keyID(key)
	if err != nil {
		return nil, err
	}
	jwk := jose.JSONWebKey{Key: key, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"}
	if !jwk.Valid() || !jwk.IsPublic() {
		return nil, fmt.Errorf("the service account key makes no valid public JSON web key")
	}
	keys, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{jwk}})
	if err != nil {
		return nil, err
	}
	return &Discovery{
		issuers:  issuers,
		jwksBase: url.URL{Scheme: "https", Host: externalAddress},
		keys:     keys,
		algs:     sets.List(sets.New(jwk.Algorithm)),
	}, nil
}

// openIDMetadata is kube-apiserver's discovery document.
type openIDMetadata struct {
	Issuer        string   `json:"issuer"`
	JWKSURI       string   `json:"jwks_uri"`
	ResponseTypes []string `json:"response_types_supported"`
	SubjectTypes  []string `json:"subject_types_supported"`
	SigningAlgs   []string `json:"id_token_signing_alg_values_supported"`
}

// ServeConfiguration answers the discovery document of the request's
// logical cluster.
func (d *Discovery) ServeConfiguration(w http.ResponseWriter, req *http.Request) {
	if !onlyGet(w, req) {
		return
	}
	cluster, ok := logicalcluster.ClusterFrom(req.Context())
	if !ok {
		responsewriters.InternalError(w, req, fmt.Errorf("no logical cluster in the request"))
		return
	}
	jwks := d.jwksBase
	jwks.Path = clustersPath + string(cluster) + JWKSPath
	body, err := json.Marshal(openIDMetadata{
		Issuer:        d.issuers.For(cluster),
		JWKSURI:       jwks.String(),
		ResponseTypes: []string{"id_token"},
		SubjectTypes:  []string{"public"},
		SigningAlgs:   d.algs,
	})
	if err != nil {
		responsewriters.InternalError(w, req, err)
		return
	}
	write(w, "application/json", body)
}

// ServeKeys answers the key set.
func (d *Discovery) ServeKeys(w http.ResponseWriter, req *http.Request) {
	if !onlyGet(w, req) {
		return
	}
	write(w, "application/jwk-set+json", d.keys)
}

// onlyGet answers 405 to any method but GET, as kube-apiserver's routes
// of these paths do, and 404 in the wildcard, which reads across logical
// clusters and is no issuer; it reports whether to answer.
func onlyGet(w http.ResponseWriter, req *http.Request) bool {
	if req.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "405: Method Not Allowed", http.StatusMethodNotAllowed)
		return false
	}
	if logicalcluster.IsWildcard(req.Context()) {
		http.NotFound(w, req)
		return false
	}
	return true
}

func write(w http.ResponseWriter, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", cacheControl)
	if _, err := w.Write(body); err != nil {
		klog.V(2).InfoS("Writing a service account issuer discovery answer failed", "err", err)
	}
}
