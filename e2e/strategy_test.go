package e2e

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// strategyStep is a request of TestStrategyRulesAsKube, and the object to
// read after it.
type strategyStep struct {
	name string
	req  request
	// object is the path of the object the step changes, read after it.
	object string
}

// objectRules is what the strategy of a kind decides of an object besides
// validation: its generation and the metadata the server keeps or sets.
type objectRules struct {
	Generation  int64
	Labels      map[string]string
	Annotations map[string]string
	// Content is the rest of the object but its status, as defaulted.
	Content map[string]any
}

// TestStrategyRulesAsKube sends the same requests to a physical cluster's
// kube-apiserver and to a logical cluster, and checks that what upstream's
// registry strategies decide besides validation comes out the same: which
// updates bump metadata.generation (a Deployment's annotations, any change
// of an EndpointSlice, never a Lease's), what a status update may change
// (metadata but a Deployment's labels), a DaemonSet's template generation
// annotation, the warnings each kind gives, the object as defaulted, and
// what scale subresources take.
func TestStrategyRulesAsKube(t *testing.T) {
	t.Parallel()
	servers := kubeAndHub(t, "strategy", "team")

	const (
		ns          = "/namespaces/default"
		deployments = "/apis/apps/v1" + ns + "/deployments"
		replicaSets = "/apis/apps/v1" + ns + "/replicasets"
		daemonSets  = "/apis/apps/v1" + ns + "/daemonsets"
		jobs        = "/apis/batch/v1" + ns + "/jobs"
		leases      = "/apis/coordination.k8s.io/v1" + ns + "/leases"
		slices      = "/apis/discovery.k8s.io/v1" + ns + "/endpointslices"
		policies    = "/apis/networking.k8s.io/v1" + ns + "/networkpolicies"
		ingresses   = "/apis/networking.k8s.io/v1" + ns + "/ingresses"
		budgets     = "/apis/policy/v1" + ns + "/poddisruptionbudgets"
		roles       = "/apis/rbac.authorization.k8s.io/v1/clusterroles"
		autoscalers = "/apis/autoscaling/v2" + ns + "/horizontalpodautoscalers"
		merge       = "application/merge-patch+json"
		// template is the pod template of the workloads, whose pods none
		// of the physical cluster's nodes would run: it has none.
		template = `"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}`
	)
	post := func(path, body string) request { return request{method: http.MethodPost, path: path, body: body} }
	patch := func(path, body string) request {
		return request{method: http.MethodPatch, path: path, contentType: merge, body: body}
	}
	steps := []strategyStep{
		// A paused Deployment, which the physical cluster's controller
		// leaves without ReplicaSets, and so without annotations of its own.
		{"create a deployment", post(deployments, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"paused":true,`+template+`}}`), deployments + "/web"},
		{"annotate a deployment", patch(deployments+"/web", `{"metadata":{"annotations":{"note":"a"}}}`), deployments + "/web"},
		{"relabel a deployment through its status", patch(deployments+"/web/status", `{"metadata":{"labels":{"tier":"x"},"annotations":{"by":"status"}}}`), deployments + "/web"},
		{"scale a deployment", patch(deployments+"/web/scale", `{"spec":{"replicas":0}}`), deployments + "/web"},
		{"scale a deployment below zero", patch(deployments+"/web/scale", `{"spec":{"replicas":-1}}`), deployments + "/web"},
		{"scale another deployment's UID", patch(deployments+"/web/scale", `{"metadata":{"uid":"00000000-0000-0000-0000-000000000000"},"spec":{"replicas":1}}`), deployments + "/web"},
		{"create a replicaset whose name is no DNS label", post(replicaSets, `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web.v1"},"spec":{"replicas":0,`+template+`}}`), replicaSets + "/web.v1"},
		{"create a daemonset", post(daemonSets, `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent"},"spec":{`+template+`}}`), daemonSets + "/agent"},
		{"change a daemonset's template", patch(daemonSets+"/agent", `{"spec":{"template":{"metadata":{"annotations":{"v":"2"}}}}}`), daemonSets + "/agent"},
		{"change a daemonset's spec but its template", patch(daemonSets+"/agent", `{"spec":{"minReadySeconds":5}}`), daemonSets + "/agent"},
		{"set a daemonset's template generation", patch(daemonSets+"/agent", `{"metadata":{"annotations":{"deprecated.daemonset.template.generation":"7"}}}`), daemonSets + "/agent"},
		{"set a daemonset's template generation through its status", patch(daemonSets+"/agent/status",
			`{"metadata":{"labels":{"tier":"x"},"annotations":{"deprecated.daemonset.template.generation":"9","by":"status"}}}`), daemonSets + "/agent"},
		{"create a suspended job", post(jobs, `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"once"},"spec":{"suspend":true,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"once","image":"busybox"}]}}}}`), jobs + "/once"},
		{"relabel a job through its status", patch(jobs+"/once/status", `{"metadata":{"labels":{"tier":"x"},"annotations":{"by":"status"}}}`), jobs + "/once"},
		{"create a lease", post(leases, `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"lock"},"spec":{"holderIdentity":"a","leaseDurationSeconds":10}}`), leases + "/lock"},
		{"renew a lease", patch(leases+"/lock", `{"spec":{"holderIdentity":"b"}}`), leases + "/lock"},
		{"create an endpointslice", post(slices, `{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-1"},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}]}`), slices + "/web-1"},
		{"relabel an endpointslice", patch(slices+"/web-1", `{"metadata":{"labels":{"tier":"x"}}}`), slices + "/web-1"},
		{"annotate an endpointslice", patch(slices+"/web-1", `{"metadata":{"annotations":{"note":"a"}}}`), slices + "/web-1"},
		{"give an endpointslice an address with leading zeros", patch(slices+"/web-1", `{"endpoints":[{"addresses":["010.0.0.2"]}]}`), slices + "/web-1"},
		{"create an endpointslice of port 0", post(slices, `{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-0"},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}],"ports":[{"port":0}]}`), slices + "/web-0"},
		{"create an FQDN endpointslice", post(slices, `{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-fqdn"},"addressType":"FQDN","endpoints":[{"addresses":["web.example.com"]}]}`), slices + "/web-fqdn"},
		{"create a networkpolicy with a CIDR with host bits", post(policies, `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"np"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.1/8"}}]}]}}`), policies + "/np"},
		{"create a networkpolicy", post(policies, `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"np"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/8"}}]}]}}`), policies + "/np"},
		{"change a networkpolicy", patch(policies+"/np", `{"spec":{"policyTypes":["Ingress"]}}`), policies + "/np"},
		{"create an ingress classed by annotation", post(ingresses, `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web","annotations":{"kubernetes.io/ingress.class":"nginx"}},"spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}}}`), ingresses + "/web"},
		{"give an ingress a load balancer IP with leading zeros", patch(ingresses+"/web/status", `{"metadata":{"labels":{"tier":"x"}},"status":{"loadBalancer":{"ingress":[{"ip":"010.1.1.1"}]}}}`), ingresses + "/web"},
		{"create a poddisruptionbudget", post(budgets, `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}`), budgets + "/web"},
		{"annotate a poddisruptionbudget through its status", patch(budgets+"/web/status", `{"metadata":{"annotations":{"by":"status"}}}`), budgets + "/web"},
		{"create a clusterrole of a relative URL", post(roles, `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"strategy-relative"},"rules":[{"nonResourceURLs":["healthz"],"verbs":["get"]}]}`), roles + "/strategy-relative"},
		{"create a horizontalpodautoscaler", post(autoscalers, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":3}}`), autoscalers + "/web"},
		{"change a horizontalpodautoscaler", patch(autoscalers+"/web", `{"spec":{"maxReplicas":4}}`), autoscalers + "/web"},
	}
	for _, step := range steps {
		var answers, objects [2]answer
		var rules [2]objectRules
		for i, s := range servers {
			answers[i] = do(t, s.client, s.url, step.req)
			objects[i] = do(t, s.client, s.url, request{method: http.MethodGet, path: step.object})
			if objects[i].code == http.StatusOK {
				rules[i] = rulesOf(t, objects[i].body)
			}
		}
		kubeAnswer, hubAnswer := answers[0], answers[1]
		if kubeAnswer.code != hubAnswer.code {
			t.Errorf("%s: kube-apiserver answers %d %s, the hub %d %s", step.name, kubeAnswer.code, kubeAnswer.body, hubAnswer.code, hubAnswer.body)
		}
		if k, h := kubeAnswer.header.Values("Warning"), hubAnswer.header.Values("Warning"); !reflect.DeepEqual(k, h) {
			t.Errorf("%s: kube-apiserver warns %q, the hub %q", step.name, k, h)
		}
		if objects[0].code != objects[1].code || !reflect.DeepEqual(rules[0], rules[1]) {
			t.Errorf("%s: kube-apiserver leaves %d %+v, the hub %d %+v", step.name, objects[0].code, rules[0], objects[1].code, rules[1])
		}
		t.Logf("%s: %d %.300s, %+v, warnings %q", step.name, kubeAnswer.code, kubeAnswer.status.Message, rules[0], kubeAnswer.header.Values("Warning"))
	}

	// A batch/v1 Job deleted without a propagation policy orphans its
	// pods: it is kept, with the orphan finalizer, until the garbage
	// collector has done so.
	var finalizers [2][]string
	for i, s := range servers {
		a := do(t, s.client, s.url, request{method: http.MethodDelete, path: jobs + "/once"})
		var job struct{ Metadata struct{ Finalizers []string } }
		if err := json.Unmarshal(a.body, &job); err != nil || a.code != http.StatusOK {
			t.Fatalf("%s: deleting a job: %d %s", s.name, a.code, a.body)
		}
		finalizers[i] = job.Metadata.Finalizers
	}
	if !reflect.DeepEqual(finalizers[0], finalizers[1]) {
		t.Errorf("deleting a job: kube-apiserver leaves finalizers %q, the hub %q", finalizers[0], finalizers[1])
	}
	t.Logf("deleting a job leaves finalizers %q", finalizers[0])
}

// rulesOf is what a strategy decided of the object body holds, with its
// UID, which a Job's labels and selector carry, as "<uid>", and without
// the hub's own record of its logical cluster.
func rulesOf(t *testing.T, body []byte) objectRules {
	var obj struct {
		Metadata struct {
			UID string
			objectRules
		}
	}
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	rules := obj.Metadata.objectRules
	if err := json.Unmarshal(bytes.ReplaceAll(body, []byte(obj.Metadata.UID), []byte("<uid>")), &rules.Content); err != nil {
		t.Fatal(err)
	}
	delete(rules.Content, "metadata")
	delete(rules.Content, "status")
	for k, v := range rules.Labels {
		rules.Labels[k] = strings.ReplaceAll(v, obj.Metadata.UID, "<uid>")
	}
	maps.DeleteFunc(rules.Annotations, func(k, _ string) bool { return strings.HasPrefix(k, "canopy.dev/") })
	if len(rules.Annotations) == 0 {
		rules.Annotations = nil
	}
	return rules
}
