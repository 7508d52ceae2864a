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
	name := string(logicalcluster.Root)
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[name] = &clientcmdapi.Cluster{
		Server:                   fmt.Sprintf("https://%s%s%s", host, logicalcluster.PathPrefix, logicalcluster.Root),
		CertificateAuthorityData: p.caPEM,
	}
	cfg.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: certPEM, ClientKeyData: keyPEM}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: "admin"}
	cfg.CurrentContext = name
	return clientcmd.WriteToFile(*cfg, path)
}
