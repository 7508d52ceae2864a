package main

import (
	"bytes"
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
	// read is what the kubeconfig and the files it names held at the
	// last parse that succeeded. A poll compares them again, a few KB,
	// and parses them only once they differ: parsing them at every poll
	// cost the syncers about 5% of their CPU.
	read []fileContent
	// parse is readKubeconfig; a test counts its calls.
	parse func(path string) (*rest.Config, *tls.Certificate, []fileContent, error)
}

// fileContent is what the file at path held when it was read.
type fileContent struct {
	path string
	data []byte
}

// hubConfig is the client configuration of the kubeconfig at path, whose
// connections go to the hub replicas at urls (hubReplicas), or to the
// kubeconfig's server if there are none, and present the client
// certificate of the hubCredential it returns.
func hubConfig(path string, urls []string) (*rest.Config, *hubCredential, error) {
	cfg, cert, read, err := readKubeconfig(path)
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
	c := &hubCredential{path: path, dialer: connrotation.NewDialer(replicas.DialContext), read: read, parse: readKubeconfig}
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
// and its client certificate, which it must have, with what it read: the
// kubeconfig, then the certificate and key files it names, if it does.
func readKubeconfig(path string) (*rest.Config, *tls.Certificate, []fileContent, error) {
	// The kubeconfig is read before clientcmd reads it again to parse
	// it: a change between the two reads is then parsed now or, as it
	// differs from what is kept, at the next poll.
	kubeconfig, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the hub kubeconfig %s: %w", path, err)
	}
	read := []fileContent{{path: path, data: kubeconfig}}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the hub kubeconfig %s: %w", path, err)
	}
	// readNamed is data when the kubeconfig holds it, or else the
	// content of the file it names instead, which a poll compares too.
	readNamed := func(data []byte, file string) ([]byte, error) {
		if len(data) != 0 || file == "" {
			return data, nil
		}
		data, err := os.ReadFile(file)
		if err == nil {
			read = append(read, fileContent{path: file, data: data})
		}
		return data, err
	}
	certPEM, err := readNamed(cfg.CertData, cfg.CertFile)
	if err != nil {
		return nil, nil, nil, err
	}
	keyPEM, err := readNamed(cfg.KeyData, cfg.KeyFile)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(certPEM) == 0 || len(keyPEM) == 0 {
		return nil, nil, nil, fmt.Errorf("the hub kubeconfig %s has no client certificate and key: a syncer's hub credential is the certificate hub synctarget create or rotate issues", path)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the client certificate of the hub kubeconfig %s: %w", path, err)
	}
	return cfg, &cert, read, nil
}

// unchanged reports whether every file still holds what it held when it
// was read. A file it cannot read counts as changed, so that parsing it
// reports why.
func unchanged(read []fileContent) bool {
	for _, f := range read {
		data, err := os.ReadFile(f.path)
		if err != nil || !bytes.Equal(data, f.data) {
			return false
		}
	}
	return true
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
// the one in use, and closes the connections made with the old one. It
// parses nothing while the files hold what they held at the last parse.
func (c *hubCredential) reload() error {
	if unchanged(c.read) {
		return nil
	}
	_, cert, read, err := c.parse(c.path)
	if err != nil {
		return err
	}
	if sha256.Sum256(cert.Certificate[0]) != c.leaf {
		leaf, err := x509.ParseCertificate(cert.Certificate[0])
		if err != nil {
			return fmt.Errorf("the client certificate of the hub kubeconfig %s: %w", c.path, err)
		}
		c.use(cert)
		c.dialer.CloseAll()
		klog.InfoS("Took the new hub credential of the hub kubeconfig", "path", c.path, "issued", leaf.NotBefore, "serial", leaf.SerialNumber.Text(16))
	}
	// Kept also when the certificate was in use already, as after a
	// kubeconfig written again with other bytes around the same one, so
	// that the next poll parses nothing.
	c.read = read
	return nil
}
