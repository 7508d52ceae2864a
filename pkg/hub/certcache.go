package hub

import (
	"crypto/sha256"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/cache"
	"k8s.io/apiserver/pkg/authentication/authenticator"
)

// certUsersTTL is how long a verified client certificate's user is
// remembered: the hub's CA only changes with a restart, so the bound is
// only there to keep the cache from holding clients long gone.
const certUsersTTL = time.Minute

// cachedCertUsers remembers the users of the client certificate chains
// next verified, so that a client's requests pay for one signature
// verification a minute rather than one each, which was a tenth of the
// hub's CPU under load.
type cachedCertUsers struct {
	next  authenticator.Request
	users *cache.LRUExpireCache
}

func newCachedCertUsers(next authenticator.Request) *cachedCertUsers {
	return &cachedCertUsers{next: next, users: cache.NewLRUExpireCache(4096)}
}

func (c *cachedCertUsers) AuthenticateRequest(req *http.Request) (*authenticator.Response, bool, error) {
	if req.TLS == nil || len(req.TLS.PeerCertificates) == 0 {
		return c.next.AuthenticateRequest(req)
	}
	h := sha256.New()
	for _, cert := range req.TLS.PeerCertificates {
		h.Write(cert.Raw)
	}
	key := string(h.Sum(nil))
	if resp, ok := c.users.Get(key); ok {
		return resp.(*authenticator.Response), true, nil
	}
	resp, ok, err := c.next.AuthenticateRequest(req)
	if ok && err == nil {
		if ttl := min(certUsersTTL, time.Until(req.TLS.PeerCertificates[0].NotAfter)); ttl > 0 {
			c.users.Add(key, resp, ttl)
		}
	}
	return resp, ok, err
}
