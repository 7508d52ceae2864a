package main

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/connrotation"
	"k8s.io/klog/v2"
)

// credentialPollInterval is how often the syncer reads its hub kubeconfig
// again for a rotated credential. A Secret's new content reaches its
// volume later than that anyway.
const credentialPollInterval = 3 * time.Second

// hubCredential is the syncer's client certificate at the hub, read again
// from its kubeconfig file when that changes (hub synctarget rotate), so
// that the syncer takes a new credential without a restart. Once it has,
// it closes every connection to the hub: the requests in flight fail and
// are retried, and the informers watch again from where they were, with
// the new certificate, without listing again or rewriting anything
// downstream. The hub revokes the old certificate once the syncer has
// reported its status with the new one (pkg/syncerscope).
type hubCredential struct {
	path   string
	cert   atomic.Pointer[tls.Certificate]
	dialer *connrotation.Dialer
	// leaf is the SHA-256 of the certificate in use.
	leaf [sha256.Size]byte
}

// hubConfig is the client configuration of the kubeconfig at path, whose
// connections go to the hub replicas at urls (hubReplicas), or to the
// kubeconfig's server if there are none, and present the client
// certificate of the hubCredential it returns.
func hubConfig(path string, urls []string) (*rest.Config, *hubCredential, error) {
	cfg, cert, err := readKubeconfig(path)
	if err != nil {
		return nil, nil, err
	}
	tlsConfig, err := rest.TLSConfigFor(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("the hub kubeconfig %s: %w", path, err)
	}
	replicas, err := newHubReplicas(cfg.Host, urls)
	if err != nil {
		return nil, nil, err
	}
	c := &hubCredential{path: path, dialer: connrotation.NewDialer(replicas.DialContext)}
	c.use(cert)
	tlsConfig.Certificates = nil
	tlsConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return c.cert.Load(), nil }
	proxy := cfg.Proxy
	if proxy == nil {
		proxy = http.ProxyFromEnvironment
	}
	// client-go's own transport, but for the certificate, the dialer and
	// HTTP/2 pings that notice a dead connection in seconds rather than
	// client-go's 45.
	transport := utilnet.SetOldTransportDefaults(&http.Transport{
		Proxy:               proxy,
		TLSHandshakeTimeout: 10 * time.Second,
		TLSClientConfig:     tlsConfig,
		MaxIdleConnsPerHost: 25,
		DialContext:         c.dialer.DialContext,
	})
	h2, err := http2.ConfigureTransports(transport)
	if err != nil {
		return nil, nil, err
	}
	h2.ReadIdleTimeout, h2.PingTimeout = http2ReadIdleTimeout, http2PingTimeout
	out := rest.CopyConfig(cfg)
	out.TLSClientConfig = rest.TLSClientConfig{}
	out.Transport = transport
	return out, c, nil
}

// readKubeconfig is the client configuration of the kubeconfig at path
// and its client certificate, which it must have.
func readKubeconfig(path string) (*rest.Config, *tls.Certificate, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, nil, fmt.Errorf("the hub kubeconfig %s: %w", path, err)
	}
	certPEM, keyPEM := cfg.CertData, cfg.KeyData
	if len(certPEM) == 0 && cfg.CertFile != "" {
		if certPEM, err = os.ReadFile(cfg.CertFile); err != nil {
			return nil, nil, err
		}
	}
	if len(keyPEM) == 0 && cfg.KeyFile != "" {
		if keyPEM, err = os.ReadFile(cfg.KeyFile); err != nil {
			return nil, nil, err
		}
	}
	if len(certPEM) == 0 || len(keyPEM) == 0 {
		return nil, nil, fmt.Errorf("the hub kubeconfig %s has no client certificate and key: a syncer's hub credential is the certificate hub synctarget create or rotate issues", path)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, nil, fmt.Errorf("the client certificate of the hub kubeconfig %s: %w", path, err)
	}
	return cfg, &cert, nil
}

// use makes cert the certificate of new connections.
func (c *hubCredential) use(cert *tls.Certificate) {
	c.cert.Store(cert)
	c.leaf = sha256.Sum256(cert.Certificate[0])
}

// watch reads the kubeconfig again every interval until ctx ends, and
// takes the certificate it holds when it is another.
func (c *hubCredential) watch(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := c.reload(); err != nil {
			// A Secret volume is replaced atomically, but a file
			// edited in place may be caught half written: the next
			// read will tell.
			klog.ErrorS(err, "Reading the hub kubeconfig again; keeping the credential in use")
		}
	}
}

// reload takes the certificate of the kubeconfig if it is another than
// the one in use, and closes the connections made with the old one.
func (c *hubCredential) reload() error {
	_, cert, err := readKubeconfig(c.path)
	if err != nil {
		return err
	}
	if sha256.Sum256(cert.Certificate[0]) == c.leaf {
		return nil
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return fmt.Errorf("the client certificate of the hub kubeconfig %s: %w", c.path, err)
	}
	c.use(cert)
	c.dialer.CloseAll()
	klog.InfoS("Took the new hub credential of the hub kubeconfig", "path", c.path, "issued", leaf.NotBefore, "serial", leaf.SerialNumber.Text(16))
	return nil
}
