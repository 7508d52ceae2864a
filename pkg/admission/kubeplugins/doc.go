// Package kubeplugins runs kube-apiserver's own admission plugins for
// pods, lifted from k8s.io/kubernetes@v1.37.1 plugin/pkg/admission into
// third_party/kubernetes, in every logical cluster, so that a pod created
// there comes out as kube-apiserver would make it: LimitRanger's default
// requests and limits, ServiceAccount's default service account and
// token volume, Priority's priority from its PriorityClass,
// DefaultTolerationSeconds' tolerations of not-ready and unreachable
// nodes, and RuntimeClass's overhead, node selector and tolerations from
// the pod's RuntimeClass; and is refused where kube-apiserver refuses it,
// with the same messages, PodSecurity's included: the Pod Security Standard a
// namespace's pod-security.kubernetes.io labels name is enforced, audited
// and warned of there as in a cluster, which platform teams rely on.
//
// Why run upstream's code rather than write the same: these plugins are
// where most of a pod's defaults come from, and each release changes
// them a little (pod-level resources, sidecars, new feature gates). The
// lift script keeps them upstream's, with their provenance.
//
// Upstream's plugins are written for one cluster: each reads a lister of
// one cluster's objects, set once through client-go's
// SharedInformerFactory, and looks up what its informer lacks through a
// client of that cluster. Plugin makes them per logical cluster, on the
// first request to it, with an informer factory whose informers are
// views of the hub's shared informers that show that cluster's objects
// (informer.Informer.Cluster), and a client of the hub's loopback
// connection whose path names the cluster. A view runs nothing and holds
// nothing, so a logical cluster costs no informer, goroutine or timer of
// its own: only its plugins' few structs, kept for the last maxClusters
// logical clusters admitted so that LimitRanger's cache of namespaces
// without LimitRanges lasts, as in kube-apiserver, and made again after.
//
// Upstream's plugins take upstream's internal types, and the hub's
// requests carry the served ones; Plugin converts with upstream's
// generated conversions, hands the plugins the request with its objects
// converted, and converts what the mutating plugins made back into the
// request's object.
//
// Which of kube-apiserver's default plugins run where in a logical
// cluster:
//   - NamespaceLifecycle: pkg/admission/namespacelifecycle, the hub's
//     own, reading the namespaces' store; ValidatingAdmissionPolicy and
//     MutatingAdmissionPolicy: pkg/admission/admissionpolicy, with
//     policies bound across logical clusters; CertificateApproval,
//     CertificateSigning and CertificateSubjectRestriction:
//     pkg/admission/certificates.
//   - LimitRanger, ServiceAccount, PodSecurity, Priority,
//     DefaultTolerationSeconds, RuntimeClass: here.
//   - Left out, since a logical cluster has nothing they act on:
//     TaintNodesByCondition (its nodes are read-only copies the syncers
//     write), DefaultStorageClass (a claim synced to a physical cluster
//     gets that cluster's default class there), StorageObjectInUseProtection
//     (no controller at the hub would remove its finalizers) and
//     PersistentVolumeClaimResize (claims are resized where they are
//     bound, downstream), ClusterTrustBundleAttest, PodTopologyLabels (pods' bindings are the
//     physical clusters'), NodeDeclaredFeatureValidator and
//     PodResizeValidator (no kubelets), PodGroupProtection (no
//     PodGroups), and the webhooks (no webhook configurations are
//     served).
//   - ResourceQuota: pkg/admission/resourcequota, one for every logical
//     cluster (its Evaluator runs workers, which per logical cluster
//     would cost a quiet one goroutines).
//   - Not yet run anywhere: DefaultIngressClass (IngressClasses are
//     served, but an Ingress without a class is not given the default
//     one).
//
// LimitRanger runs twice: as kube runs it, on pods, and, a Canopy
// extension, on the pod templates of workloads (templates.go), whose pods
// the hub does not make: a template gets the defaults, and meets the
// bounds, that a pod of it would, so that quota can count replicas ×
// template and the pods made downstream are as kube would make them.
//
// Upsynced pods, copies of pods a physical cluster's kube-apiserver
// admitted with its own LimitRanges, ServiceAccounts and PriorityClasses,
// are left as they are: the plugins ran on them where they were made.
package kubeplugins
