package syncerdeploy

import (
	"bytes"
	"fmt"
	"io"

	"github.com/canopy-dev/canopy/pkg/podspec"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

const (
	// Namespace is where the syncer runs in the physical cluster.
	Namespace = "canopy-syncer"
	// kubeconfigDir is where the syncer's container finds the hub
	// kubeconfig, in file kubeconfigKey.
	kubeconfigDir = "/etc/canopy/hub"
	kubeconfigKey = "kubeconfig"
)

// Manifest is the multi-document YAML that runs the syncer of t in the
// physical cluster from image, reaching the hub with hubKubeconfig: the
// namespace canopy-syncer, a ServiceAccount, a ClusterRole and its
// binding, a Secret holding hubKubeconfig and a Deployment of one syncer.
// The syncer reaches the physical cluster with its ServiceAccount, by
// in-cluster configuration, so it gets no --cluster-kubeconfig.
//
// hubURLs, when given, are the hub's replicas, which the syncer gets as
// its --hub-url flags, to move between.
//
// Every name but the namespace's carries the target's key, so that the
// syncers of several targets may share a physical cluster.
func Manifest(t Target, image string, hubKubeconfig []byte, hubURLs ...string) ([]byte, error) {
	name := "syncer-" + t.Key()
	labels := map[string]string{"app.kubernetes.io/name": "canopy-syncer", "app.kubernetes.io/instance": name}
	objs := []runtime.Object{
		&corev1.Namespace{TypeMeta: typeMeta("v1", "Namespace"), ObjectMeta: metav1.ObjectMeta{Name: Namespace}},
		&corev1.ServiceAccount{TypeMeta: typeMeta("v1", "ServiceAccount"), ObjectMeta: t.meta(name, Namespace)},
	}
	objs = append(objs, clusterRBAC(t.meta("canopy:"+name, ""), t.downstreamRules(),
		rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: Namespace})...)
	objs = append(objs, t.kubeconfigSecret(hubKubeconfig), t.deployment(name, labels, image, hubURLs))
	return multiDocument(objs)
}

// KubeconfigSecret is the YAML of the Secret of Manifest alone, holding
// hubKubeconfig: what `hub synctarget rotate` prints, for the syncer to
// take a new credential without anything else changing.
func KubeconfigSecret(t Target, hubKubeconfig []byte) ([]byte, error) {
	return multiDocument([]runtime.Object{t.kubeconfigSecret(hubKubeconfig)})
}

// HubKubeconfig is the syncer's hub kubeconfig in manifest, as Manifest
// or KubeconfigSecret make it: the one Secret's kubeconfig.
func HubKubeconfig(manifest []byte) ([]byte, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(manifest), 4096)
	for {
		var secret corev1.Secret
		if err := dec.Decode(&secret); err == io.EOF {
			return nil, fmt.Errorf("no Secret with a %s in:\n%s", kubeconfigKey, manifest)
		} else if err != nil {
			return nil, err
		}
		if kubeconfig, ok := secret.Data[kubeconfigKey]; secret.Kind == "Secret" && ok {
			return kubeconfig, nil
		}
	}
}

// kubeconfigSecret is the Secret the syncer's container reads its hub
// kubeconfig from.
func (t Target) kubeconfigSecret(hubKubeconfig []byte) *corev1.Secret {
	return &corev1.Secret{
		TypeMeta: typeMeta("v1", "Secret"), ObjectMeta: t.meta("syncer-"+t.Key()+"-hub-kubeconfig", Namespace),
		Type: corev1.SecretTypeOpaque, Data: map[string][]byte{kubeconfigKey: hubKubeconfig},
	}
}

// multiDocument is the multi-document YAML of objs.
func multiDocument(objs []runtime.Object) ([]byte, error) {
	var out bytes.Buffer
	for i, o := range objs {
		doc, err := yaml.Marshal(o)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out.WriteString("---\n")
		}
		out.Write(doc)
	}
	return out.Bytes(), nil
}

// clusterRBAC is a ClusterRole of rules and a ClusterRoleBinding of it to
// subject, both with m.
func clusterRBAC(m metav1.ObjectMeta, rules []rbacv1.PolicyRule, subject rbacv1.Subject) []runtime.Object {
	return []runtime.Object{
		&rbacv1.ClusterRole{TypeMeta: typeMeta(rbacv1.SchemeGroupVersion.String(), "ClusterRole"), ObjectMeta: m, Rules: rules},
		&rbacv1.ClusterRoleBinding{
			TypeMeta: typeMeta(rbacv1.SchemeGroupVersion.String(), "ClusterRoleBinding"), ObjectMeta: m,
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: m.Name},
			Subjects: []rbacv1.Subject{subject},
		},
	}
}

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

// downstreamRules are what the syncer does in the physical cluster: it
// keeps the synced resources and the ConfigMaps, Secrets and
// ServiceAccounts their pods use, and reads their status, in namespaces
// it creates and deletes; it reads the pods and Events to copy them up,
// and the nodes to copy up those its pods run on and to sum their
// allocatable resources.
func (t Target) downstreamRules() []rbacv1.PolicyRule {
	groups, resources := t.byGroup()
	var rules []rbacv1.PolicyRule
	for _, g := range groups {
		rules = append(rules, rbacv1.PolicyRule{APIGroups: []string{g}, Resources: resources[g],
			Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"}})
	}
	return append(rules,
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: podspec.ReferencedResources, Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete"}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods", "events"}, Verbs: []string{"list", "watch"}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch", "create", "delete"}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"list", "watch"}},
	)
}

// deployment runs one syncer: Recreate, since two syncers of one target
// would fight over the same objects.
func (t Target) deployment(name string, labels map[string]string, image string, hubURLs []string) *appsv1.Deployment {
	m := t.meta(name, Namespace)
	args := []string{"--hub-kubeconfig", kubeconfigDir + "/" + kubeconfigKey, "--sync-target", t.Path()}
	for _, u := range hubURLs {
		args = append(args, "--hub-url", u)
	}
	m.Labels = labels
	return &appsv1.Deployment{
		TypeMeta: typeMeta(appsv1.SchemeGroupVersion.String(), "Deployment"), ObjectMeta: m,
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					ServiceAccountName: name,
					Containers: []corev1.Container{{
						Name:         "syncer",
						Image:        image,
						Args:         args,
						VolumeMounts: []corev1.VolumeMount{{Name: "hub-kubeconfig", MountPath: kubeconfigDir, ReadOnly: true}},
						SecurityContext: &corev1.SecurityContext{
							AllowPrivilegeEscalation: ptr.To(false),
							ReadOnlyRootFilesystem:   ptr.To(true),
						},
					}},
					Volumes: []corev1.Volume{{Name: "hub-kubeconfig", VolumeSource: corev1.VolumeSource{
						Secret: &corev1.SecretVolumeSource{SecretName: name + "-hub-kubeconfig"},
					}}},
				},
			},
		},
	}
}
