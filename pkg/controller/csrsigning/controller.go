package csrsigning

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/url"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	certcsr "k8s.io/client-go/util/certificate/csr"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/authorization/reserved"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/identity"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	certificatesregistry "github.com/canopy-dev/canopy/pkg/registry/certificates"
	"github.com/canopy-dev/canopy/pkg/shard"
)

const (
	// workers is how many requests are signed at once.
	workers = 2
	// minDuration is the shortest certificate signed, whatever a request
	// asks: twice the backdating, as kube-controller-manager's.
	minDuration = 10 * time.Minute
	// backdate is how far before now a certificate starts, for clocks
	// that run behind, unless it is short (shortBelow), when it is a
	// hundredth of its duration.
	backdate   = 5 * time.Minute
	shortBelow = 8 * time.Hour
)

var resource = certificatesv1.SchemeGroupVersion.WithResource("certificatesigningrequests")

// Patcher patches objects through the API, as *loopback.Client does.
type Patcher interface {
	Patch(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte,
		subresources ...string) error
}

// Config is what the controller needs.
type Config struct {
	// Requests is the CertificateSigningRequests' store, whose shared
	// informer the controller reads.
	Requests  *genericregistry.Store
	Informers *informer.Factory
	Ownership shard.Ownership
	// Client writes the certificates.
	Client Patcher
	// CA and CAKey sign them, for at most Duration, and never beyond
	// the CA's own expiry.
	CA       *x509.Certificate
	CAKey    crypto.Signer
	Duration time.Duration
}

// key names one request.
type key struct {
	cluster logicalcluster.Name
	name    string
}

// Controller signs requests for client certificates of the hub.
type Controller struct {
	cfg      Config
	informer *informer.Informer
	loop     clusterwide.Loop[key]
}

// New returns the controller of cfg.
func New(cfg Config) *Controller {
	c := &Controller{cfg: cfg, informer: cfg.Informers.For(cfg.Requests)}
	c.loop = clusterwide.Loop[key]{
		Name:      "csr-signing",
		Workers:   workers,
		Cluster:   func(k key) logicalcluster.Name { return k.cluster },
		Ownership: cfg.Ownership,
		Process:   c.process,
	}
	c.loop.Watch(c.informer, keys)
	return c
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

// keys is the request obj when it waits for this signer.
func keys(obj runtime.Object, deleted bool) []key {
	r, ok := obj.(*certificatesv1.CertificateSigningRequest)
	if !ok || deleted || !waiting(r) {
		return nil
	}
	cluster, err := logicalcluster.FromObject(r)
	if err != nil {
		klog.ErrorS(err, "A stored CertificateSigningRequest has no logical cluster", "name", r.Name)
		return nil
	}
	return []key{{cluster, r.Name}}
}

// waiting reports whether r is for this signer, approved, not denied,
// and neither issued nor failed yet.
func waiting(r *certificatesv1.CertificateSigningRequest) bool {
	if r.Spec.SignerName != certificatesv1.KubeAPIServerClientSignerName || len(r.Status.Certificate) > 0 {
		return false
	}
	var approved bool
	for _, c := range r.Status.Conditions {
		switch {
		case c.Type == certificatesv1.CertificateDenied:
			return false
		case c.Type == certificatesv1.CertificateFailed && c.Status != corev1.ConditionFalse:
			return false
		case c.Type == certificatesv1.CertificateApproved:
			approved = true
		}
	}
	return approved
}

// process signs the request of k, or marks it Failed saying why it may
// not be signed. It reads the informer, which the event that queued the
// request is already in; the patch names the version it read, so that
// a request changed since is looked at again rather than signed as it
// was.
func (c *Controller) process(ctx context.Context, k key) error {
	obj, ok := c.informer.Get(k.cluster, "", k.name)
	if !ok {
		return nil
	}
	r, ok := obj.(*certificatesv1.CertificateSigningRequest)
	if !ok || !waiting(r) {
		return nil
	}
	status := map[string]any{}
	cert, refusal := c.sign(r, k.cluster)
	if refusal != nil {
		conditions := append(r.Status.Conditions, certificatesv1.CertificateSigningRequestCondition{
			Type: certificatesv1.CertificateFailed, Status: corev1.ConditionTrue,
			Reason: "SignerValidationFailure", Message: refusal.Error(), LastUpdateTime: metav1.Now(),
		})
		status["conditions"] = conditions
	} else {
		status["certificate"] = cert
	}
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": r.ResourceVersion},
		"status":   status,
	})
	if err != nil {
		return err
	}
	ctx = logicalcluster.WithCluster(ctx, k.cluster)
	if err := c.cfg.Client.Patch(ctx, resource, "", r.Name, types.MergePatchType, patch, "status"); err != nil {
		return fmt.Errorf("writing the outcome of CertificateSigningRequest %s: %w", r.Name, err)
	}
	klog.V(2).InfoS("Signed a CertificateSigningRequest", "cluster", k.cluster, "name", r.Name, "failed", refusal != nil)
	return nil
}

// sign is the PEM-encoded certificate r asks for, valid in cluster only,
// or why it may not have one.
func (c *Controller) sign(r *certificatesv1.CertificateSigningRequest, cluster logicalcluster.Name) ([]byte, error) {
	request, err := certificatesregistry.ParseRequest(r.Spec.Request)
	if err != nil {
		return nil, fmt.Errorf("unable to parse csr %q: %v", r.Name, err)
	}
	if err := request.CheckSignature(); err != nil {
		return nil, fmt.Errorf("unable to verify certificate request signature: %v", err)
	}
	keyUsage, extKeyUsage, err := clientUsages(r.Spec.Usages)
	if err != nil {
		return nil, err
	}
	if why := reserved.Identity(request.Subject.CommonName, request.Subject.Organization); why != "" {
		return nil, fmt.Errorf("the hub signs no certificate for this subject: %s", why)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	// The requester names any other URIs it wants, but not the logical
	// cluster the certificate is good in.
	uris := []*url.URL{identity.ClusterBinding(string(cluster))}
	for _, u := range request.URIs {
		if !identity.IsClusterBinding(u) {
			uris = append(uris, u)
		}
	}
	now := time.Now()
	d := c.duration(r.Spec.ExpirationSeconds)
	before := backdate
	if d < shortBelow {
		before = d / 100
	}
	notAfter := now.Add(d)
	if notAfter.After(c.cfg.CA.NotAfter) {
		notAfter = c.cfg.CA.NotAfter
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      request.Subject,
		DNSNames:     request.DNSNames, IPAddresses: request.IPAddresses, EmailAddresses: request.EmailAddresses, URIs: uris,
		NotBefore: now.Add(-before).Truncate(time.Second), NotAfter: notAfter,
		KeyUsage: keyUsage, ExtKeyUsage: extKeyUsage,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cfg.CA, request.PublicKey, c.cfg.CAKey)
	if err != nil {
		return nil, fmt.Errorf("failed to sign certificate: %v", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

// duration is how long a certificate asked to last expirationSeconds
// lasts: as asked, within minDuration and the controller's Duration.
func (c *Controller) duration(expirationSeconds *int32) time.Duration {
	if expirationSeconds == nil {
		return c.cfg.Duration
	}
	return min(max(certcsr.ExpirationSecondsToDuration(*expirationSeconds), minDuration), c.cfg.Duration)
}

// clientUsages are the usages of a client certificate of the hub: client
// auth, and optionally digital signature and key encipherment, and
// nothing else (k8s.io/kubernetes@v1.37.1
// pkg/controller/certificates/signer/signer.go validAPIServerClientUsages).
func clientUsages(usages []certificatesv1.KeyUsage) (x509.KeyUsage, []x509.ExtKeyUsage, error) {
	var keyUsage x509.KeyUsage
	var clientAuth bool
	for _, u := range usages {
		switch u {
		case certificatesv1.UsageDigitalSignature:
			keyUsage |= x509.KeyUsageDigitalSignature
		case certificatesv1.UsageKeyEncipherment:
			keyUsage |= x509.KeyUsageKeyEncipherment
		case certificatesv1.UsageClientAuth:
			clientAuth = true
		default:
			return 0, nil, fmt.Errorf("invalid usage for client certificate: %s", u)
		}
	}
	if !clientAuth {
		return 0, nil, fmt.Errorf("missing required usage for client certificate: %s", certificatesv1.UsageClientAuth)
	}
	return keyUsage, []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, nil
}
