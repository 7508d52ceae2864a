package e2e

import (
	"fmt"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

// serviceObjects are one object of each kind stored for the physical
// clusters, in namespace shop.
const serviceObjects = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{name: http, port: 80}, {name: admin, port: 8080, targetPort: admin}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: web, namespace: shop}
subsets: [{addresses: [{ip: 10.0.0.1}], ports: [{port: 8080}]}]
---
apiVersion: v1
kind: Event
metadata: {name: web.1, namespace: shop}
involvedObject: {kind: Service, name: web, namespace: shop}
type: Normal
reason: Synced
message: carried to the physical cluster
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: shop}
spec:
  limits: [{type: Container, max: {cpu: "2"}, min: {cpu: 100m}}]
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: quota, namespace: shop}
spec:
  hard: {pods: "10", limits.cpu: "4"}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
  rules:
  - host: shop.example.com
    http:
      paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web, namespace: shop}
spec:
  podSelector: {matchLabels: {app: web}}
  egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}], ports: [{port: 443}]}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec:
  minAvailable: 50%
  selector: {matchLabels: {app: web}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: leader, namespace: shop}
spec: {holderIdentity: syncer-1, leaseDurationSeconds: 15}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-1, namespace: shop, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
endpoints: [{addresses: [10.0.0.1]}]
ports: [{name: http, port: 8080}]
`

// TestServices stores the kinds that run on physical clusters in a child
// logical cluster with the real kubectl, as a user would, and checks
// Kubernetes' defaults, validation, tables, status subresources,
// server-side apply, discovery and namespace deletion.
func TestServices(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, func(t *testing.T, h *hub, k kubectl) {
		k.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
		k.createLogicalCluster("root", "a")
		testServices(t, k.with("a", "shop"))
	})
}

func testServices(t *testing.T, k kubectl) {
	k.must("create", "namespace", "shop")
	k.must("apply", "-f", writeFile(t, serviceObjects))

	lines := strings.Split(strings.TrimSpace(k.must("get", "svc")), "\n")
	if got := strings.Join(strings.Fields(lines[0]), " "); got != "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE" {
		t.Errorf("kubectl get svc has columns %q", got)
	}
	// The hub gives the Service a cluster IP of its default range.
	clusterIP := k.must("get", "svc", "web", "-o", "jsonpath={.spec.clusterIP}")
	if ip, err := netip.ParseAddr(clusterIP); err != nil || !netip.MustParsePrefix("10.96.0.0/12").Contains(ip) {
		t.Errorf("service web has cluster IP %q, want one of 10.96.0.0/12", clusterIP)
	}
	if got := strings.Fields(lines[1]); len(got) < 5 || strings.Join(got[:5], " ") != "web LoadBalancer "+clusterIP+" <pending> 80/TCP,8080/TCP" {
		t.Errorf("kubectl get svc prints %q", lines[1])
	}
	defaults := k.must("get", "svc", "web", "-o", "jsonpath={.spec.ports[0].targetPort} {.spec.ports[1].targetPort} {.spec.ports[0].protocol} {.spec.sessionAffinity} {.spec.externalTrafficPolicy} {.spec.clusterIPs} {.spec.ipFamilies}")
	if want := `80 admin TCP None Cluster ["` + clusterIP + `"] ["IPv4"]`; defaults != want {
		t.Errorf("service web has targetPorts, protocol, sessionAffinity, externalTrafficPolicy, clusterIPs, ipFamilies %q, want %q", defaults, want)
	}
	if got := k.must("get", "svc", "web", "-o", "yaml"); !strings.Contains(got, "targetPort: 80") || !strings.Contains(got, "protocol: TCP") || !strings.Contains(got, "sessionAffinity: None") {
		t.Errorf("kubectl get svc -o yaml lacks the defaults:\n%s", got)
	}
	for resource, want := range map[string]string{
		"netpol/web":          "{.spec.policyTypes} {.spec.egress[0].ports[0].protocol}=[\"Ingress\",\"Egress\"] TCP",
		"hpa/web":             "{.spec.minReplicas} {.spec.metrics[0].resource.target.averageUtilization}=1 80",
		"limits":              "{.items[0].spec.limits[0].default.cpu} {.items[0].spec.limits[0].defaultRequest.cpu}=2 2",
		"ep/web":              "{.subsets[0].ports[0].protocol}=TCP",
		"endpointslice/web-1": "{.ports[0].protocol}=TCP",
	} {
		jsonpath, value, _ := strings.Cut(want, "=")
		if got := k.must("get", resource, "-o", "jsonpath="+jsonpath); got != value {
			t.Errorf("%s has %s = %q; want %q", resource, jsonpath, got, value)
		}
	}
	for resource, header := range map[string]string{
		"ep":            "NAME ENDPOINTS AGE",
		"ev":            "LAST SEEN TYPE REASON OBJECT MESSAGE",
		"limits":        "NAME CREATED AT",
		"quota":         "NAME REQUEST LIMIT AGE",
		"ing":           "NAME CLASS HOSTS ADDRESS PORTS AGE",
		"netpol":        "NAME POD-SELECTOR AGE",
		"pdb":           "NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE",
		"hpa":           "NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE",
		"leases":        "NAME HOLDER AGE",
		"endpointslice": "NAME ADDRESSTYPE PORTS ENDPOINTS AGE",
	} {
		if got := strings.Join(strings.Fields(strings.Split(k.must("get", resource), "\n")[0]), " "); got != header {
			t.Errorf("kubectl get %s has columns %q; want %q", resource, got, header)
		}
	}
	if got := k.must("get", "ev"); !strings.Contains(got, "service/web") || !strings.Contains(got, "carried to the physical cluster") {
		t.Errorf("kubectl get events prints:\n%s", got)
	}

	// Invalid objects are refused with 422, naming the field to fix.
	for name, c := range map[string]struct{ manifest, want string }{
		"port 0": {"apiVersion: v1\nkind: Service\nmetadata: {name: bad}\nspec: {ports: [{port: 0}]}\n",
			`spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`},
		"no pathType": {"apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: bad}\nspec:\n  rules: [{http: {paths: [{path: /, backend: {service: {name: web, port: {number: 80}}}}]}}]\n",
			`The Ingress "bad" is invalid: spec.rules[0].http.paths[0].pathType: Required value`},
		"min and max": {"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: bad}\nspec: {minAvailable: 1, maxUnavailable: 1}\n",
			`The PodDisruptionBudget "bad" is invalid: spec: Invalid value`},
		"event elsewhere": {"apiVersion: v1\nkind: Event\nmetadata: {name: bad}\ninvolvedObject: {kind: Pod, name: p, namespace: other}\n",
			`involvedObject.namespace: Invalid value: "other": does not match event.namespace`},
	} {
		if _, err := k.run("apply", "-f", writeFile(t, c.manifest)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: applying got %v; want an error saying %q", name, err, c.want)
		}
	}

	// Server-side apply owns fields per manager and merges ports by key.
	ssa := "apiVersion: v1\nkind: Service\nmetadata: {name: api}\nspec:\n  clusterIP: 10.96.0.10\n  selector: {app: api}\n  ports: [{name: http, port: PORT}]\n"
	k.must("apply", "--server-side", "-f", writeFile(t, strings.Replace(ssa, "PORT", "80", 1)))
	k.must("apply", "--server-side", "-f", writeFile(t, strings.Replace(ssa, "PORT", "8080", 1)))
	if got := k.must("get", "svc", "api", "-o", "jsonpath={.spec.ports[*].port} {.spec.clusterIPs}"); got != `8080 ["10.96.0.10"]` {
		t.Errorf("service api after a server-side apply has ports and clusterIPs %q", got)
	}
	if _, err := k.run("patch", "svc", "api", "--type=merge", "-p", `{"spec":{"clusterIP":"10.96.0.11","clusterIPs":["10.96.0.11"]}}`); err == nil || !strings.Contains(err.Error(), "spec.clusterIPs[0]: Invalid value") {
		t.Errorf("changing a cluster IP: %v; want it refused", err)
	}

	// A LoadBalancer with externalTrafficPolicy Local gets a health check
	// node port, as kube-apiserver gives it, which its validation requires.
	k.must("create", "-f", writeFile(t, "apiVersion: v1\nkind: Service\nmetadata: {name: local}\nspec: {type: LoadBalancer, externalTrafficPolicy: Local, selector: {app: web}, ports: [{port: 80}]}\n"))
	if got := k.must("get", "svc", "local", "-o", "jsonpath={.spec.healthCheckNodePort}"); got == "" || got == "0" {
		t.Errorf("a LoadBalancer Service with externalTrafficPolicy Local has health check node port %q", got)
	}

	// Status is written through the status subresource only.
	lb := `{"status":{"loadBalancer":{"ingress":[{"ip":"IP"}]}}}`
	k.must("patch", "svc", "web", "--type=merge", "-p", strings.Replace(lb, "IP", "192.0.2.1", 1))
	if got := k.must("get", "svc", "web", "-o", "jsonpath={.status.loadBalancer.ingress}"); got != "" {
		t.Errorf("a patch of service web set its status %s", got)
	}
	k.must("patch", "svc", "web", "--subresource=status", "--type=merge", "-p", strings.Replace(lb, "IP", "192.0.2.1", 1))
	if got := strings.Fields(strings.Split(k.must("get", "svc", "web"), "\n")[1])[3]; got != "192.0.2.1" {
		t.Errorf("service web has EXTERNAL-IP %q after its status was set", got)
	}
	k.must("patch", "pdb", "web", "--subresource=status", "--type=merge", "-p", `{"status":{"disruptionsAllowed":2,"currentHealthy":4,"desiredHealthy":2,"expectedPods":4}}`)
	if got := strings.Fields(strings.Split(k.must("get", "pdb", "web"), "\n")[1]); strings.Join(got[:4], " ") != "web 50% N/A 2" {
		t.Errorf("kubectl get pdb prints %q", got)
	}

	resources := k.must("api-resources", "--no-headers")
	for _, want := range []string{"services svc v1 true Service", "endpoints ep v1 true Endpoints", "events ev v1 true Event",
		"limitranges limits v1 true LimitRange", "resourcequotas quota v1 true ResourceQuota",
		"ingresses ing networking.k8s.io/v1 true Ingress", "ingressclasses networking.k8s.io/v1 false IngressClass",
		"networkpolicies netpol networking.k8s.io/v1 true NetworkPolicy", "poddisruptionbudgets pdb policy/v1 true PodDisruptionBudget",
		"horizontalpodautoscalers hpa autoscaling/v2 true HorizontalPodAutoscaler", "leases coordination.k8s.io/v1 true Lease",
		"endpointslices discovery.k8s.io/v1 true EndpointSlice"} {
		if !containsLine(resources, want) {
			t.Errorf("kubectl api-resources lacks %q:\n%s", want, resources)
		}
	}
	if got := k.must("get", "all", "-o", "name"); !strings.Contains(got, "service/web") || !strings.Contains(got, "horizontalpodautoscaler.autoscaling/web") {
		t.Errorf("kubectl get all lists:\n%s", got)
	}

	kinds := "svc,ep,ev,limits,quota,ing,netpol,pdb,hpa,leases,endpointslices"
	k.must("delete", "namespace", "shop", "--timeout=30s")
	if got := k.must("get", kinds, "-o", "name"); got != "" {
		t.Errorf("namespace shop kept content after its deletion:\n%s", got)
	}
}

// containsLine tells whether out has a line whose fields are want's.
func containsLine(out, want string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.Join(strings.Fields(line), " ") == want {
			return true
		}
	}
	return false
}

// with is k in the logical cluster of context and namespace ns.
func (k kubectl) with(context, ns string) kubectl {
	k.must("config", "set-context", context, "--namespace", ns)
	k.must("config", "use-context", context)
	return k
}

// TestServiceClusterIPs has two replicas of a hub on one PostgreSQL
// database give cluster IPs from a range of 13 addresses to Services
// created at once on both: each gets a different one, the fourteenth
// none, and a deleted Service's IP goes to the next. A headless Service
// stays headless, and a taken IP given by hand is refused.
func TestServiceClusterIPs(t *testing.T) {
	t.Parallel()
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), datastore: pgtest.Shared(t).NewDatabase(t), port: freePort(t),
		flags: []string{"--service-cluster-ip-range", "10.0.0.0/28"}}
	h.start(t)
	r := startReplica(t, h)
	replicas := []kubectl{
		{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()},
		{t: t, kubeconfig: filepath.Join(r.dataDir, "admin.kubeconfig"), home: t.TempDir()},
	}
	const size = 13
	errs := make([]error, size+1)
	var wg sync.WaitGroup
	for i := range size + 1 {
		wg.Go(func() {
			_, errs[i] = replicas[i%2].run("create", "service", "clusterip", fmt.Sprintf("s%d", i), "--tcp", "80")
		})
	}
	wg.Wait()
	var refused []error
	for _, err := range errs {
		if err != nil {
			refused = append(refused, err)
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0].Error(), "failed to allocate a serviceIP: range is full") {
		t.Fatalf("of %d Services created at once for %d addresses, refused: %v; want one, the range being full", size+1, size, refused)
	}
	ips := strings.Fields(replicas[0].must("get", "services", "-o", `jsonpath={range .items[?(@.metadata.name!="kubernetes")]}{.spec.clusterIP} {end}`))
	if len(ips) != size || len(sets.New(ips...)) != size {
		t.Fatalf("the Services have cluster IPs %v; want %d different ones", ips, size)
	}
	// Any of the Services made frees its IP; which one was refused is a
	// matter of timing.
	made := slices.IndexFunc(errs, func(err error) bool { return err == nil })
	freed := replicas[0].must("get", "service", fmt.Sprintf("s%d", made), "-o", "jsonpath={.spec.clusterIP}")
	replicas[0].must("delete", "service", fmt.Sprintf("s%d", made))
	if got := replicas[1].must("create", "service", "clusterip", "next", "--tcp", "80", "-o", "jsonpath={.spec.clusterIP}"); got != freed {
		t.Errorf("the Service created after one was deleted got %q, want its IP %s", got, freed)
	}
	requests := size + 3
	for _, tc := range []struct{ manifest, want string }{
		{"apiVersion: v1\nkind: Service\nmetadata: {name: taken}\nspec: {clusterIP: " + freed + ", ports: [{port: 80}]}\n",
			"spec.clusterIPs: Invalid value: [\"" + freed + "\"]: failed to allocate IP " + freed + ": provided IP is already allocated"},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: headless}\nspec: {clusterIP: None, ports: [{port: 80}]}\n", ""},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: db}\nspec: {type: ExternalName, externalName: db.example.com}\n", ""},
	} {
		requests++
		_, err := replicas[requests%2].run("create", "-f", writeFile(t, tc.manifest))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("creating %q: %v; want %q", tc.manifest, err, tc.want)
		}
	}
	if got := replicas[0].must("get", "service", "headless", "db", "-o", "jsonpath={.items[*].spec.clusterIP}"); got != "None" {
		t.Errorf("the headless and ExternalName Services have cluster IPs %q, want None and none", got)
	}
	t.Logf("%d requests", requests)
}
