package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/release"
	"github.com/canopy-dev/canopy/pkg/syncerdeploy"
)

// The charts, from the repository's deploy directory, and values files
// giving them every credential in an existing Secret.
var (
	hubChart             = filepath.Join("..", "deploy", "hub")
	syncerChart          = filepath.Join("..", "deploy", "syncer")
	hubExistingSecrets   = filepath.Join("testdata", "charts", "hub-existing-secrets.yaml")
	syncerExistingSecret = filepath.Join("testdata", "charts", "syncer-existing-secret.yaml")
)

// TestCharts: with Helm 3 and Helm 4, helm lint passes for deploy/hub and
// deploy/syncer, and what they render, with their defaults and with every
// credential in an existing Secret, passes kubectl apply --dry-run=server
// against a real physical cluster. The hub chart runs the replicas as
// issue 16 asks (three, spread over nodes, a PodDisruptionBudget, probes
// of /livez and /readyz) and keeps the identity key it makes through
// upgrades and reinstalls, and the syncer chart, given the values hub
// synctarget create --output values prints, makes the very objects of the
// manifest it prints otherwise; the values that command prints against a
// real hub hold the syncer's credential.
func TestCharts(t *testing.T) {
	t.Parallel()
	pc := pcluster.Start(t, "charts", pcluster.Options{})
	k := kubectl{t: t, kubeconfig: pc.Kubeconfig, home: t.TempDir()}
	config, err := clientcmd.LoadFromFile(pc.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"canopy", syncerdeploy.Namespace} {
		k.must("create", "namespace", ns)
	}
	// dryRun applies rendered to the physical cluster in a server-side
	// dry run, which validates and admits every object as a create would.
	dryRun := func(what, rendered string) {
		t.Helper()
		out, err := k.run("apply", "--dry-run=server", "-f", writeFile(t, rendered))
		if err != nil {
			t.Errorf("%s: %v\n%s", what, err, rendered)
		} else if !strings.Contains(out, "(server dry run)") {
			t.Errorf("%s: kubectl apply printed %q", what, out)
		}
	}
	for _, component := range []string{"helm", "helm4"} {
		t.Run(component, func(t *testing.T) {
			h := newHelm(t, k, component)
			helm := func(args ...string) string {
				t.Helper()
				return h.must(config.CurrentContext, args...)
			}
			for _, lint := range [][]string{
				{hubChart}, {hubChart, "-f", hubExistingSecrets},
				{syncerChart}, {syncerChart, "-f", syncerExistingSecret},
			} {
				if out := helm(append([]string{"lint", "--strict"}, lint...)...); !strings.Contains(out, "0 chart(s) failed") {
					t.Errorf("helm lint %v:\n%s", lint, out)
				}
			}

			rendered := helm("template", "canopy-hub", hubChart, "--namespace", "canopy")
			checkHubDefaults(t, decodeObjects(t, rendered))
			dryRun("deploy/hub, defaults", rendered)
			rendered = helm("template", "canopy-hub", hubChart, "--namespace", "canopy", "-f", hubExistingSecrets)
			checkHubExistingSecrets(t, decodeObjects(t, rendered))
			dryRun("deploy/hub, existing Secrets", rendered)
			rendered = helm("template", "canopy-hub", hubChart, "--namespace", "canopy", "--set-string", "datastore.dsn="+dsnWithPassword)
			checkDSNOffCommandLine(t, decodeObjects(t, rendered))
			checkServiceMonitor(t, h, config.CurrentContext)
			checkIdentityKeyKept(t, k, helm, "keep-"+component)

			rendered = helm("template", "pc1", syncerChart, "--namespace", syncerdeploy.Namespace)
			checkDefaultImage(t, decodeObjects(t, rendered), syncerChart, "syncer")
			dryRun("deploy/syncer, defaults", rendered)
			rendered = helm("template", "pc1", syncerChart, "--namespace", syncerdeploy.Namespace, "-f", syncerExistingSecret)
			checkSyncerExistingSecret(t, decodeObjects(t, rendered))
			dryRun("deploy/syncer, existing Secret", rendered)
			for _, tc := range []struct {
				target  syncerdeploy.Target
				hubURLs []string
			}{
				{target: syncerdeploy.Target{Cluster: "root:platform", Name: "pc1"}},
				{target: syncerdeploy.Target{Cluster: "root:org:team", Name: "edge-1", Resources: []workloadv1alpha1.GroupResource{
					{Group: "apps", Resource: "statefulsets"}, {Resource: "configmaps"}, {Group: "networking.k8s.io", Resource: "ingresses"}, {Group: "apps", Resource: "deployments"},
				}}, hubURLs: []string{"https://hub-0.example.com:6443", "https://hub-1.example.com:6443"}},
			} {
				rendered := syncerLikeManifest(t, helm, tc.target, tc.hubURLs...)
				dryRun("deploy/syncer for "+tc.target.Path(), rendered)
			}
		})
	}
	t.Run("synctarget create --output values", func(t *testing.T) {
		rendered := newHelm(t, k, "helm").must(config.CurrentContext, "template", "pc1", syncerChart, "--namespace", syncerdeploy.Namespace,
			"-f", writeFile(t, syncTargetValues(t)))
		dryRun("deploy/syncer with the values hub synctarget create printed", rendered)
	})
}

// syncTargetValues registers SyncTarget pc1 in root at a hub of its own
// with hub synctarget create --output values, checks that the hub
// kubeconfig in the values it prints is the syncer's, and returns them.
// An --output it does not know is refused before anything is registered.
func syncTargetValues(t *testing.T) string {
	t.Helper()
	h, admin, _ := startHubWith(t)
	create := func(output string) (string, error) {
		cmd := exec.Command(h.bin, "synctarget", "create", "pc1", "--logical-cluster", "root", "--data-dir", h.dataDir, "--output", output)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return stdout.String(), fmt.Errorf("hub synctarget create --output %s: %v\n%s", output, err, stderr.String())
		}
		return stdout.String(), nil
	}
	if _, err := create("yaml"); err == nil || !strings.Contains(err.Error(), "want manifest, or values") {
		t.Errorf("an unknown --output: %v", err)
	}
	if out, err := admin.run("get", "synctarget", "pc1"); err == nil || !strings.Contains(err.Error(), "NotFound") {
		t.Errorf("an unknown --output registered SyncTarget pc1: %s %v", out, err)
	}
	values, err := create("values")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		HubKubeconfig struct{ Kubeconfig string } `json:"hubKubeconfig"`
	}
	if err := yaml.Unmarshal([]byte(values), &v); err != nil {
		t.Fatalf("%v in the values:\n%s", err, values)
	}
	syncer := kubectl{t: t, kubeconfig: writeFile(t, v.HubKubeconfig.Kubeconfig), home: t.TempDir()}
	if who := syncer.must("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"); who != workloadv1alpha1.SyncerUser(workloadv1alpha1.TargetKey("root", "pc1")) {
		t.Errorf("the hub kubeconfig of the values is %s's", who)
	}
	return values
}

// checkHubDefaults checks the hub chart's defaults: three replicas
// preferably on different nodes, one of which may be down at a time, each
// probed at /livez and /readyz over HTTPS, unprivileged, with the
// datastore and the identity key from Secrets the chart makes.
func checkHubDefaults(t *testing.T, objs []runtime.Object) {
	t.Helper()
	checkDefaultImage(t, objs, hubChart, "hub")
	if got, want := kinds(objs), []string{"Deployment", "PodDisruptionBudget", "Secret", "Secret", "Service", "ServiceAccount"}; !slices.Equal(got, want) {
		t.Errorf("deploy/hub renders %v, want %v", got, want)
	}
	d := only[*appsv1.Deployment](t, objs)
	if *d.Spec.Replicas != 3 {
		t.Errorf("%d replicas, want 3", *d.Spec.Replicas)
	}
	anti := d.Spec.Template.Spec.Affinity.PodAntiAffinity
	if anti == nil || len(anti.PreferredDuringSchedulingIgnoredDuringExecution) != 1 ||
		anti.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.TopologyKey != corev1.LabelHostname {
		t.Errorf("pod anti-affinity %+v, want replicas preferably on different nodes", anti)
	}
	c := d.Spec.Template.Spec.Containers[0]
	for probe, path := range map[*corev1.Probe]string{c.LivenessProbe: "/livez", c.ReadinessProbe: "/readyz", c.StartupProbe: "/livez"} {
		if probe == nil || probe.HTTPGet == nil || probe.HTTPGet.Path != path || probe.HTTPGet.Scheme != corev1.URISchemeHTTPS || probe.HTTPGet.Port.String() != "https" {
			t.Errorf("probe %+v, want GET %s over HTTPS on the secure port", probe, path)
		}
	}
	s := c.SecurityContext
	if !*d.Spec.Template.Spec.SecurityContext.RunAsNonRoot || !*s.ReadOnlyRootFilesystem || *s.AllowPrivilegeEscalation || !slices.Equal(s.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("security context %+v of pod %+v", s, d.Spec.Template.Spec.SecurityContext)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("resource requests %v", c.Resources.Requests)
	}
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"--datastore-file=/etc/canopy/datastore/dsn", "--identity-key-file=/etc/canopy/identity/key", "--bind-address=0.0.0.0",
		"--secure-port=6443", "--external-hostname=canopy-hub.canopy.svc", "--tls-san=canopy-hub.canopy.svc.cluster.local", "--data-dir=/var/lib/canopy"} {
		if !strings.Contains(args, want) {
			t.Errorf("hub args %q lack %s", args, want)
		}
	}
	if pdb := only[*policyv1.PodDisruptionBudget](t, objs); pdb.Spec.MaxUnavailable.IntValue() != 1 {
		t.Errorf("PodDisruptionBudget maxUnavailable %v, want 1", pdb.Spec.MaxUnavailable)
	}
	secrets := map[string]*corev1.Secret{}
	for _, o := range objs {
		if s, ok := o.(*corev1.Secret); ok {
			secrets[s.Name] = s
		}
	}
	identity := secrets["canopy-hub-identity"]
	if identity == nil || identity.Annotations["helm.sh/resource-policy"] != "keep" || len(identity.Data["key"]) != 44 {
		t.Errorf("identity Secret %+v, want a kept one with a random key of 32 bytes in base64", identity)
	}
	if secrets["canopy-hub-datastore"] == nil || datastoreMount(t, d) != "canopy-hub-datastore's dsn" {
		t.Errorf("the DSN comes from %s, want the Secret the chart makes", datastoreMount(t, d))
	}
}

// dsnWithPassword is a DSN holding a password, which TestCharts gives the
// hub chart to check that it stays off the hub's command line.
const dsnWithPassword = "postgres://canopy:pa55-off-the-command-line@db.example.com:5432/canopy?sslmode=verify-full"

// checkDSNOffCommandLine checks that the hub chart, given dsnWithPassword,
// keeps it in the Secret it makes and gives it to the hub only as a file
// of that Secret: never in the container's command or args, which every
// user of the node reads in ps, nor in its environment.
func checkDSNOffCommandLine(t *testing.T, objs []runtime.Object) {
	t.Helper()
	const password = "pa55-off-the-command-line"
	d := only[*appsv1.Deployment](t, objs)
	c := d.Spec.Template.Spec.Containers[0]
	for _, arg := range append(slices.Clone(c.Command), c.Args...) {
		if strings.Contains(arg, password) || strings.HasPrefix(arg, "--datastore=") {
			t.Errorf("the hub's command line holds the DSN: %q", arg)
		}
	}
	if !slices.Contains(c.Args, "--datastore-file=/etc/canopy/datastore/dsn") {
		t.Errorf("hub args %q lack --datastore-file=/etc/canopy/datastore/dsn", c.Args)
	}
	for _, e := range c.Env {
		if strings.Contains(e.Value, password) || e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "canopy-hub-datastore" {
			t.Errorf("the hub's environment holds the DSN: %+v", e)
		}
	}
	if got := datastoreMount(t, d); got != "canopy-hub-datastore's dsn" {
		t.Errorf("the DSN file is %s, want canopy-hub-datastore's dsn", got)
	}
	for _, o := range objs {
		if s, ok := o.(*corev1.Secret); ok && s.Name == "canopy-hub-datastore" && s.StringData["dsn"] != dsnWithPassword {
			t.Errorf("Secret canopy-hub-datastore holds %q, want the DSN given", s.StringData["dsn"])
		}
	}
}

// datastoreMount says which Secret key the hub of d reads its
// --datastore-file from, as "<Secret>'s <key>", or why none.
func datastoreMount(t *testing.T, d *appsv1.Deployment) string {
	t.Helper()
	const file = "/etc/canopy/datastore/dsn"
	spec := d.Spec.Template.Spec
	for _, m := range spec.Containers[0].VolumeMounts {
		if !strings.HasPrefix(file, m.MountPath+"/") {
			continue
		}
		for _, v := range spec.Volumes {
			if v.Name != m.Name || v.Secret == nil {
				continue
			}
			for _, item := range v.Secret.Items {
				if filepath.Join(m.MountPath, item.Path) == file {
					return v.Secret.SecretName + "'s " + item.Key
				}
			}
		}
		return fmt.Sprintf("volume %s mounted at %s, which is no Secret holding %s", m.Name, m.MountPath, filepath.Base(file))
	}
	return "nothing: no volume is mounted at " + filepath.Dir(file)
}

// checkHubExistingSecrets checks that the hub chart, given Secrets for
// every credential, makes none, and mounts the given ones.
func checkHubExistingSecrets(t *testing.T, objs []runtime.Object) {
	t.Helper()
	if got, want := kinds(objs), []string{"ConfigMap", "Deployment", "PodDisruptionBudget", "Service", "ServiceAccount"}; !slices.Equal(got, want) {
		t.Errorf("deploy/hub with existing Secrets renders %v, want %v", got, want)
	}
	d := only[*appsv1.Deployment](t, objs)
	spec := d.Spec.Template.Spec
	c := spec.Containers[0]
	if got := datastoreMount(t, d); got != "canopy-db's url" {
		t.Errorf("the DSN comes from %s, want canopy-db's url", got)
	}
	mounted := map[string]string{}
	for _, v := range spec.Volumes {
		if v.Secret != nil {
			mounted[v.Secret.SecretName] = v.Secret.Items[0].Key + " as " + v.Secret.Items[0].Path
		}
	}
	if want := map[string]string{"canopy-db": "url as dsn", "canopy-identity": "sealing-key as key", "canopy-tokens": "tokens.csv as tokens.csv"}; !equality.Semantic.DeepEqual(mounted, want) {
		t.Errorf("mounted Secrets %v, want %v", mounted, want)
	}
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"--token-auth-file=/etc/canopy/tokens/tokens.csv", "--audit-log-path=-", "--audit-policy-file=/etc/canopy/audit/policy.yaml",
		"--audit-log-maxage=7", "--external-hostname=hub.example.com", "--tls-san=10.0.0.10", "--compaction-interval=10m"} {
		if !strings.Contains(args, want) {
			t.Errorf("hub args %q lack %s", args, want)
		}
	}
	if svc := only[*corev1.Service](t, objs); svc.Spec.Ports[0].Port != 6443 || svc.Spec.Type != corev1.ServiceTypeLoadBalancer || svc.Annotations["prometheus.io/port"] != "6443" {
		t.Errorf("Service ports %+v, annotations %v", svc.Spec.Ports, svc.Annotations)
	}
}

// checkIdentityKeyKept installs the hub chart in namespace ns of the
// physical cluster and checks that the identity key it makes stays the
// same through an upgrade, an uninstall and an install again: a new key
// would lose the identity sealed in the database.
func checkIdentityKeyKept(t *testing.T, k kubectl, helm func(args ...string) string, ns string) {
	t.Helper()
	k.must("create", "namespace", ns)
	key := func(step string) string {
		t.Helper()
		out, err := k.run("get", "secret", "canopy-hub-identity", "-n", ns, "-o", "jsonpath={.data.key}")
		if err != nil || out == "" {
			t.Fatalf("after %s, the identity key: %q, %v", step, out, err)
		}
		return out
	}
	helm("install", "canopy-hub", hubChart, "--namespace", ns)
	installed := key("install")
	helm("upgrade", "canopy-hub", hubChart, "--namespace", ns, "--set", "replicas=2")
	if got := key("upgrade"); got != installed {
		t.Errorf("helm upgrade changed the identity key")
	}
	helm("uninstall", "canopy-hub", "--namespace", ns)
	if got := key("uninstall"); got != installed {
		t.Errorf("helm uninstall changed the identity key")
	}
	helm("install", "canopy-hub", hubChart, "--namespace", ns)
	if got := key("install again"); got != installed {
		t.Errorf("helm install after uninstall changed the identity key")
	}
}

// checkServiceMonitor checks that the hub chart makes a ServiceMonitor
// only with the Secret of a token that may read /metrics, which the hub
// answers to no one else.
func checkServiceMonitor(t *testing.T, h helm, context string) {
	t.Helper()
	args := []string{"template", "canopy-hub", hubChart, "--namespace", "canopy", "--set", "metrics.serviceMonitor.enabled=true"}
	if out, err := h.run(context, args...); err == nil || !strings.Contains(err.Error(), "allowed to get /metrics") {
		t.Errorf("a ServiceMonitor without a token: %v\n%s", err, out)
	}
	out := h.must(context, append(args, "--set", "metrics.serviceMonitor.bearerTokenSecret.name=prometheus-canopy")...)
	if !strings.Contains(out, "kind: ServiceMonitor") || !strings.Contains(out, "name: prometheus-canopy") {
		t.Errorf("no ServiceMonitor with the token's Secret in:\n%s", out)
	}
}

// checkDefaultImage checks that the image chart runs by default is the
// one pkg/release names for command, the one hack/image.sh builds, tagged
// with the chart's appVersion, a tag pkg/release gives images.
func checkDefaultImage(t *testing.T, objs []runtime.Object, chart, command string) {
	t.Helper()
	meta, err := os.ReadFile(filepath.Join(chart, "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		AppVersion string `json:"appVersion"`
	}
	if err := yaml.Unmarshal(meta, &c); err != nil {
		t.Fatal(err)
	}
	if release.Tag(c.AppVersion) != c.AppVersion {
		t.Errorf("%s: appVersion %q is no tag pkg/release gives images", chart, c.AppVersion)
	}
	if got, want := only[*appsv1.Deployment](t, objs).Spec.Template.Spec.Containers[0].Image, release.Image(command, c.AppVersion); got != want {
		t.Errorf("%s runs image %s by default, want %s", chart, got, want)
	}
}

// checkSyncerExistingSecret checks that the syncer chart, given the
// Secret of its hub kubeconfig, makes none and mounts that one.
func checkSyncerExistingSecret(t *testing.T, objs []runtime.Object) {
	t.Helper()
	if got, want := kinds(objs), []string{"ClusterRole", "ClusterRoleBinding", "Deployment", "ServiceAccount"}; !slices.Equal(got, want) {
		t.Errorf("deploy/syncer with an existing Secret renders %v, want %v", got, want)
	}
	d := only[*appsv1.Deployment](t, objs)
	if v := d.Spec.Template.Spec.Volumes[0].Secret; v.SecretName != "edge-1-hub" || v.Items[0].Key != "config" || v.Items[0].Path != "kubeconfig" {
		t.Errorf("the hub kubeconfig comes from %+v, want edge-1-hub's config", v)
	}
	if image := d.Spec.Template.Spec.Containers[0].Image; !strings.HasPrefix(image, "registry.example.com:5000/canopy/syncer@sha256:") {
		t.Errorf("image %s", image)
	}
}

// syncerLikeManifest renders the syncer chart with the values hub
// synctarget create --output values prints for target, given hubURLs as
// its --hub-url if several, and checks that they are the objects of the
// manifest it prints otherwise, its Namespace aside, which helm install
// --create-namespace makes.
func syncerLikeManifest(t *testing.T, helm func(args ...string) string, target syncerdeploy.Target, hubURLs ...string) string {
	t.Helper()
	const image = "registry.example.com/canopy/syncer:v1"
	kubeconfig := []byte("apiVersion: v1\nkind: Config\n# the syncer's hub kubeconfig\n")
	values, err := syncerdeploy.Values(target, image, kubeconfig, hubURLs...)
	if err != nil {
		t.Fatal(err)
	}
	rendered := helm("template", "pc1", syncerChart, "--namespace", syncerdeploy.Namespace, "-f", writeFile(t, string(values)))
	manifest, err := syncerdeploy.Manifest(target, image, kubeconfig, hubURLs...)
	if err != nil {
		t.Fatal(err)
	}
	want := byKindAndName(t, decodeObjects(t, string(manifest)))
	delete(want, "Namespace "+syncerdeploy.Namespace)
	got := byKindAndName(t, decodeObjects(t, rendered))
	for key, w := range want {
		if g, ok := got[key]; !ok {
			t.Errorf("%s: the chart makes no %s", target.Path(), key)
		} else if !equality.Semantic.DeepEqual(g, w) {
			gy, _ := yaml.Marshal(g)
			wy, _ := yaml.Marshal(w)
			t.Errorf("%s: the chart's %s\n%s\nthe manifest's\n%s", target.Path(), key, gy, wy)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("%s: the chart makes %s, which the manifest does not", target.Path(), key)
		}
	}
	return rendered
}

// decodeObjects are the typed objects of the multi-document YAML s.
func decodeObjects(t *testing.T, s string) []runtime.Object {
	t.Helper()
	var objs []runtime.Object
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(s), 4096)
	for {
		var raw runtime.RawExtension
		if err := dec.Decode(&raw); err == io.EOF {
			return objs
		} else if err != nil {
			t.Fatalf("%v in:\n%s", err, s)
		}
		if len(raw.Raw) == 0 || string(raw.Raw) == "null" {
			continue
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(raw.Raw, nil, nil)
		if err != nil {
			t.Fatalf("%v: %s", err, raw.Raw)
		}
		objs = append(objs, obj)
	}
}

// kinds are the kinds of objs, sorted.
func kinds(objs []runtime.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetObjectKind().GroupVersionKind().Kind)
	}
	slices.Sort(out)
	return out
}

func byKindAndName(t *testing.T, objs []runtime.Object) map[string]runtime.Object {
	t.Helper()
	out := map[string]runtime.Object{}
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			t.Fatal(err)
		}
		out[o.GetObjectKind().GroupVersionKind().Kind+" "+m.GetName()] = o
	}
	return out
}

// only is the one object of type T in objs.
func only[T runtime.Object](t *testing.T, objs []runtime.Object) T {
	t.Helper()
	var found []T
	for _, o := range objs {
		if typed, ok := o.(T); ok {
			found = append(found, typed)
		}
	}
	if len(found) != 1 {
		var zero T
		t.Fatalf("%d objects of type %T, want one", len(found), zero)
	}
	return found[0]
}
