package hub

import (
	"fmt"
	"os"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// writeAdminKubeconfig writes a kubeconfig whose context root talks to
// logical cluster root as admin. Every certificate is embedded, so the file
// works wherever it is copied.
func writeAdminKubeconfig(path string, p *pki, host string) error {
	certPEM, err := os.ReadFile(p.path("admin.crt"))
	if err != nil {
		return err
	}
	keyPEM, err := os.ReadFile(p.path("admin.key"))
	if err != nil {
		return err
	}
	server := fmt.Sprintf("https://%s%s%s", host, logicalcluster.PathPrefix, logicalcluster.Root)
	return clientcmd.WriteToFile(kubeconfig(server, p.caPEM, "admin", certPEM, keyPEM, string(logicalcluster.Root)), path)
}

// kubeconfig is a kubeconfig whose one context, named context, talks to
// server as user with a client certificate, trusting the CA of caPEM.
func kubeconfig(server string, caPEM []byte, user string, certPEM, keyPEM []byte, context string) clientcmdapi.Config {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[context] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: caPEM}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{ClientCertificateData: certPEM, ClientKeyData: keyPEM}
	cfg.Contexts[context] = &clientcmdapi.Context{Cluster: context, AuthInfo: user}
	cfg.CurrentContext = context
	return *cfg
}
