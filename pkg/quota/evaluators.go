package quota

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apiserver/pkg/admission"
	kubequota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	resourcehelper "k8s.io/component-helpers/resource"
)

// The evaluators of pods and services are Kubernetes' own, taken from
// k8s.io/kubernetes@v1.37.1 pkg/quota/v1/evaluator/core/pods.go and
// pkg/quota/v1/evaluator/core/services.go, with the helpers they call
// from pkg/apis/core/v1/helper/helpers.go, pkg/apis/core/v1/helper/qos/qos.go
// and pkg/scheduler/util/utils.go, as kube-controller-manager runs them
// with its default feature gates: InPlacePodVerticalScaling and
// PodLevelResources on. k8s.io/kubernetes is no dependency of the hub, so
// they are copied, not imported; what is left out is said where it is.

var (
	// Pods and Services are the resources whose evaluators are kube's.
	Pods     = corev1.SchemeGroupVersion.WithResource("pods").GroupResource()
	Services = corev1.SchemeGroupVersion.WithResource("services").GroupResource()
)

var podObjectCountName = generic.ObjectCountQuotaResourceNameFor(Pods)

var resourceRequestsDeviceClassPrefix = corev1.DefaultResourceRequestsPrefix + resourcev1.ResourceDeviceClassPrefix

// podResources are the resources a pod evaluator tracks.
var podResources = []corev1.ResourceName{
	podObjectCountName,
	corev1.ResourceCPU,
	corev1.ResourceMemory,
	corev1.ResourceEphemeralStorage,
	corev1.ResourceRequestsCPU,
	corev1.ResourceRequestsMemory,
	corev1.ResourceRequestsEphemeralStorage,
	corev1.ResourceLimitsCPU,
	corev1.ResourceLimitsMemory,
	corev1.ResourceLimitsEphemeralStorage,
	corev1.ResourcePods,
}

// podResourcePrefixes are the prefixes of the resources a pod evaluator
// tracks besides podResources.
var podResourcePrefixes = []string{
	corev1.ResourceHugePagesPrefix,
	corev1.ResourceRequestsHugePagesPrefix,
}

// requestedResourcePrefixes are the prefixes of the resources a pod
// requests that quota tracks both bare and under requests.
var requestedResourcePrefixes = []string{
	corev1.ResourceHugePagesPrefix,
}

// validationSet is the resources a pod's containers must all set when a
// quota limits them.
var validationSet = sets.New(
	corev1.ResourceCPU,
	corev1.ResourceMemory,
	corev1.ResourceRequestsCPU,
	corev1.ResourceRequestsMemory,
	corev1.ResourceLimitsCPU,
	corev1.ResourceLimitsMemory,
)

func maskResourceWithPrefix(r corev1.ResourceName, prefix string) corev1.ResourceName {
	return corev1.ResourceName(prefix + string(r))
}

func isNativeResource(name corev1.ResourceName) bool {
	return !strings.Contains(string(name), "/") || strings.Contains(string(name), corev1.ResourceDefaultNamespacePrefix)
}

func isExtendedResourceName(name corev1.ResourceName) bool {
	if isNativeResource(name) || strings.HasPrefix(string(name), corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(corev1.DefaultResourceRequestsPrefix+string(name))) == 0
}

func isDRAExtendedResourceName(name corev1.ResourceName) bool {
	return isExtendedResourceName(name) || strings.HasPrefix(string(name), resourcev1.ResourceDeviceClassPrefix)
}

func isExtendedResourceNameForQuota(name corev1.ResourceName) bool {
	nonNative := !isNativeResource(name)
	implicitExtendedResource := strings.HasPrefix(string(name), resourceRequestsDeviceClassPrefix)
	isQuotaRequest := strings.HasPrefix(string(name), corev1.DefaultResourceRequestsPrefix)
	return (nonNative || implicitExtendedResource) && isQuotaRequest
}

// podEvaluator is quota's evaluator of pods, listing them with list. Its
// clock is the wall clock: a pod past its deletion grace period stops
// counting.
type podEvaluator struct {
	list generic.ListFuncByNamespace
	now  func() time.Time
}

var _ kubequota.Evaluator = &podEvaluator{}

// Constraints asks the containers of a pod to set the cpu and memory
// requests and limits that a quota limits, unless the pod sets them.
func (p *podEvaluator) Constraints(required []corev1.ResourceName, item runtime.Object) error {
	pod, err := toPod(item)
	if err != nil {
		return err
	}
	if resourcehelper.IsPodLevelResourcesSet(pod) {
		return nil
	}
	requiredSet := sets.New(required...).Intersection(validationSet)
	missing := map[corev1.ResourceName]sets.Set[string]{}
	for i := range pod.Spec.Containers {
		enforcePodContainerConstraints(&pod.Spec.Containers[i], requiredSet, missing)
	}
	for i := range pod.Spec.InitContainers {
		enforcePodContainerConstraints(&pod.Spec.InitContainers[i], requiredSet, missing)
	}
	if len(missing) == 0 {
		return nil
	}
	var messages []string
	for _, r := range sets.List(sets.KeySet(missing)) {
		messages = append(messages, fmt.Sprintf("%s for: %s", r, strings.Join(sets.List(missing[r]), ",")))
	}
	return fmt.Errorf("must specify %s", strings.Join(messages, "; "))
}

func (p *podEvaluator) GroupResource() schema.GroupResource { return Pods }

// Handles is a pod's create, the update that makes it terminating or no
// longer, and its resize.
func (p *podEvaluator) Handles(a admission.Attributes) bool {
	op := a.GetOperation()
	switch a.GetSubresource() {
	case "":
		if op == admission.Update {
			pod, err1 := toPod(a.GetObject())
			oldPod, err2 := toPod(a.GetOldObject())
			if err1 != nil || err2 != nil {
				return false
			}
			if isTerminating(oldPod) != isTerminating(pod) {
				return true
			}
		}
		return op == admission.Create
	case "resize":
		return op == admission.Update
	default:
		return false
	}
}

func (p *podEvaluator) Matches(q *corev1.ResourceQuota, item runtime.Object) (bool, error) {
	return generic.Matches(q, item, p.MatchingResources, podMatchesScopeFunc)
}

func (p *podEvaluator) MatchingResources(input []corev1.ResourceName) []corev1.ResourceName {
	result := kubequota.Intersection(input, podResources)
	for _, r := range input {
		if kubequota.ContainsPrefix(podResourcePrefixes, r) {
			result = append(result, r)
		}
		if isExtendedResourceNameForQuota(r) {
			result = append(result, r)
		}
	}
	return result
}

func (p *podEvaluator) MatchingScopes(item runtime.Object, selectors []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	matched := []corev1.ScopedResourceSelectorRequirement{}
	for _, s := range selectors {
		match, err := podMatchesScopeFunc(s, item)
		if err != nil {
			return []corev1.ScopedResourceSelectorRequirement{}, fmt.Errorf("error on matching scope %v: %v", s, err)
		}
		if match {
			matched = append(matched, s)
		}
	}
	return matched, nil
}

func (p *podEvaluator) UncoveredQuotaScopes(limited, matched []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	uncovered := []corev1.ScopedResourceSelectorRequirement{}
	for _, s := range limited {
		covered := false
		for _, m := range matched {
			if m.ScopeName == s.ScopeName {
				covered = true
				break
			}
		}
		if !covered {
			uncovered = append(uncovered, s)
		}
	}
	return uncovered, nil
}

func (p *podEvaluator) Usage(item runtime.Object) (corev1.ResourceList, error) {
	pod, err := toPod(item)
	if err != nil {
		return corev1.ResourceList{}, err
	}
	result := corev1.ResourceList{podObjectCountName: *resource.NewQuantity(1, resource.DecimalSI)}
	if !CountsCompute(pod, p.now()) {
		return result, nil
	}
	opts := resourcehelper.PodResourcesOptions{UseStatusResources: true}
	return kubequota.Add(result, podComputeUsageHelper(resourcehelper.PodRequests(pod, opts), resourcehelper.PodLimits(pod, opts))), nil
}

func (p *podEvaluator) UsageStats(options kubequota.UsageStatsOptions) (kubequota.UsageStats, error) {
	return generic.CalculateUsageStats(options, p.list, podMatchesScopeFunc, p.Usage)
}

func enforcePodContainerConstraints(c *corev1.Container, required sets.Set[corev1.ResourceName], missing map[corev1.ResourceName]sets.Set[string]) {
	usage := podComputeUsageHelper(c.Resources.Requests, c.Resources.Limits)
	for _, r := range sets.List(required.Difference(sets.New(kubequota.ResourceNames(usage)...))) {
		if _, ok := missing[r]; !ok {
			missing[r] = sets.New[string]()
		}
		missing[r].Insert(c.Name)
	}
}

// podComputeUsageHelper is the usage of a pod with requests and limits.
func podComputeUsageHelper(requests, limits corev1.ResourceList) corev1.ResourceList {
	result := corev1.ResourceList{corev1.ResourcePods: resource.MustParse("1")}
	if request, found := requests[corev1.ResourceCPU]; found {
		result[corev1.ResourceCPU] = request
		result[corev1.ResourceRequestsCPU] = request
	}
	if limit, found := limits[corev1.ResourceCPU]; found {
		result[corev1.ResourceLimitsCPU] = limit
	}
	if request, found := requests[corev1.ResourceMemory]; found {
		result[corev1.ResourceMemory] = request
		result[corev1.ResourceRequestsMemory] = request
	}
	if limit, found := limits[corev1.ResourceMemory]; found {
		result[corev1.ResourceLimitsMemory] = limit
	}
	if request, found := requests[corev1.ResourceEphemeralStorage]; found {
		result[corev1.ResourceEphemeralStorage] = request
		result[corev1.ResourceRequestsEphemeralStorage] = request
	}
	if limit, found := limits[corev1.ResourceEphemeralStorage]; found {
		result[corev1.ResourceLimitsEphemeralStorage] = limit
	}
	for r, request := range requests {
		if kubequota.ContainsPrefix(requestedResourcePrefixes, r) {
			result[r] = request
			result[maskResourceWithPrefix(r, corev1.DefaultResourceRequestsPrefix)] = request
		}
		if isDRAExtendedResourceName(r) {
			result[maskResourceWithPrefix(r, corev1.DefaultResourceRequestsPrefix)] = request
		}
	}
	return result
}

func toPod(obj runtime.Object) (*corev1.Pod, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("expect *v1.Pod, got %T", obj)
	}
	return pod, nil
}

func podMatchesScopeFunc(selector corev1.ScopedResourceSelectorRequirement, obj runtime.Object) (bool, error) {
	pod, err := toPod(obj)
	if err != nil {
		return false, err
	}
	switch selector.ScopeName {
	case corev1.ResourceQuotaScopeTerminating:
		return isTerminating(pod), nil
	case corev1.ResourceQuotaScopeNotTerminating:
		return !isTerminating(pod), nil
	case corev1.ResourceQuotaScopeBestEffort:
		return isBestEffort(pod), nil
	case corev1.ResourceQuotaScopeNotBestEffort:
		return !isBestEffort(pod), nil
	case corev1.ResourceQuotaScopePriorityClass:
		if selector.Operator == corev1.ScopeSelectorOpExists {
			return len(pod.Spec.PriorityClassName) != 0, nil
		}
		return podMatchesSelector(pod, selector)
	case corev1.ResourceQuotaScopeCrossNamespacePodAffinity:
		return usesCrossNamespacePodAffinity(pod), nil
	}
	return false, nil
}

// isBestEffort tells a pod of QoS class BestEffort. The hub gives every
// pod its class when it is created, as kube-apiserver does, which
// GetPodQOS reads first; one without is BestEffort when nothing in it
// asks for or limits cpu or memory.
func isBestEffort(pod *corev1.Pod) bool {
	if pod.Status.QOSClass != "" {
		return pod.Status.QOSClass == corev1.PodQOSBestEffort
	}
	asks := func(r *corev1.ResourceRequirements) bool {
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if _, ok := r.Requests[name]; ok {
				return true
			}
			if _, ok := r.Limits[name]; ok {
				return true
			}
		}
		return false
	}
	if pod.Spec.Resources != nil && resourcehelper.IsPodLevelResourcesSet(pod) {
		return !asks(pod.Spec.Resources)
	}
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if asks(&cs[i].Resources) {
				return false
			}
		}
	}
	return true
}

// isTerminating tells a pod with an active deadline.
func isTerminating(pod *corev1.Pod) bool {
	return pod.Spec.ActiveDeadlineSeconds != nil && *pod.Spec.ActiveDeadlineSeconds >= 0
}

func podMatchesSelector(pod *corev1.Pod, selector corev1.ScopedResourceSelectorRequirement) (bool, error) {
	s, err := scopedResourceSelectorRequirementsAsSelector(selector)
	if err != nil {
		return false, fmt.Errorf("failed to parse and convert selector: %v", err)
	}
	var m map[string]string
	if len(pod.Spec.PriorityClassName) != 0 {
		m = map[string]string{string(corev1.ResourceQuotaScopePriorityClass): pod.Spec.PriorityClassName}
	}
	return s.Matches(labels.Set(m)), nil
}

func scopedResourceSelectorRequirementsAsSelector(ssr corev1.ScopedResourceSelectorRequirement) (labels.Selector, error) {
	var op selection.Operator
	switch ssr.Operator {
	case corev1.ScopeSelectorOpIn:
		op = selection.In
	case corev1.ScopeSelectorOpNotIn:
		op = selection.NotIn
	case corev1.ScopeSelectorOpExists:
		op = selection.Exists
	case corev1.ScopeSelectorOpDoesNotExist:
		op = selection.DoesNotExist
	default:
		return nil, fmt.Errorf("%q is not a valid scope selector operator", ssr.Operator)
	}
	r, err := labels.NewRequirement(string(ssr.ScopeName), op, ssr.Values)
	if err != nil {
		return nil, err
	}
	return labels.NewSelector().Add(*r), nil
}

func crossNamespacePodAffinityTerm(term *corev1.PodAffinityTerm) bool {
	return len(term.Namespaces) != 0 || term.NamespaceSelector != nil
}

func crossNamespacePodAffinityTerms(terms []corev1.PodAffinityTerm) bool {
	for i := range terms {
		if crossNamespacePodAffinityTerm(&terms[i]) {
			return true
		}
	}
	return false
}

func crossNamespaceWeightedPodAffinityTerms(terms []corev1.WeightedPodAffinityTerm) bool {
	for i := range terms {
		if crossNamespacePodAffinityTerm(&terms[i].PodAffinityTerm) {
			return true
		}
	}
	return false
}

func usesCrossNamespacePodAffinity(pod *corev1.Pod) bool {
	if pod == nil || pod.Spec.Affinity == nil {
		return false
	}
	if a := pod.Spec.Affinity.PodAffinity; a != nil {
		if crossNamespacePodAffinityTerms(a.RequiredDuringSchedulingIgnoredDuringExecution) ||
			crossNamespaceWeightedPodAffinityTerms(a.PreferredDuringSchedulingIgnoredDuringExecution) {
			return true
		}
	}
	if a := pod.Spec.Affinity.PodAntiAffinity; a != nil {
		if crossNamespacePodAffinityTerms(a.RequiredDuringSchedulingIgnoredDuringExecution) ||
			crossNamespaceWeightedPodAffinityTerms(a.PreferredDuringSchedulingIgnoredDuringExecution) {
			return true
		}
	}
	return false
}

// CountsCompute is upstream's QuotaV1Pod: whether a pod's compute
// resources count at now. A terminal pod's do not, nor those of a pod
// past its deletion grace period.
func CountsCompute(pod *corev1.Pod, now time.Time) bool {
	if pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded {
		return false
	}
	if end, ok := GraceEnds(pod); ok && now.After(end) {
		return false
	}
	return true
}

// GraceEnds is when the deletion grace period of a pod being deleted
// gracefully ends.
func GraceEnds(pod *corev1.Pod) (time.Time, bool) {
	if pod.DeletionTimestamp == nil || pod.DeletionGracePeriodSeconds == nil {
		return time.Time{}, false
	}
	return pod.DeletionTimestamp.Add(time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second), true
}

var serviceObjectCountName = generic.ObjectCountQuotaResourceNameFor(Services)

// serviceResources are the resources a service evaluator tracks.
var serviceResources = []corev1.ResourceName{
	serviceObjectCountName,
	corev1.ResourceServices,
	corev1.ResourceServicesNodePorts,
	corev1.ResourceServicesLoadBalancers,
}

// serviceEvaluator is quota's evaluator of services, listing them with
// list.
type serviceEvaluator struct{ list generic.ListFuncByNamespace }

var _ kubequota.Evaluator = &serviceEvaluator{}

func (p *serviceEvaluator) Constraints([]corev1.ResourceName, runtime.Object) error { return nil }

func (p *serviceEvaluator) GroupResource() schema.GroupResource { return Services }

// Handles is a service's create, and the update that may change its
// node ports or load balancer.
func (p *serviceEvaluator) Handles(a admission.Attributes) bool {
	operation := a.GetOperation()
	return admission.Create == operation || admission.Update == operation
}

func (p *serviceEvaluator) Matches(q *corev1.ResourceQuota, item runtime.Object) (bool, error) {
	return generic.Matches(q, item, p.MatchingResources, generic.MatchesNoScopeFunc)
}

func (p *serviceEvaluator) MatchingResources(input []corev1.ResourceName) []corev1.ResourceName {
	return kubequota.Intersection(input, serviceResources)
}

func (p *serviceEvaluator) MatchingScopes(runtime.Object, []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	return []corev1.ScopedResourceSelectorRequirement{}, nil
}

func (p *serviceEvaluator) UncoveredQuotaScopes([]corev1.ScopedResourceSelectorRequirement, []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	return []corev1.ScopedResourceSelectorRequirement{}, nil
}

func (p *serviceEvaluator) Usage(item runtime.Object) (corev1.ResourceList, error) {
	svc, ok := item.(*corev1.Service)
	if !ok {
		return corev1.ResourceList{}, fmt.Errorf("expect *v1.Service, got %T", item)
	}
	ports := int64(len(svc.Spec.Ports))
	result := corev1.ResourceList{
		serviceObjectCountName:               *resource.NewQuantity(1, resource.DecimalSI),
		corev1.ResourceServices:              *resource.NewQuantity(1, resource.DecimalSI),
		corev1.ResourceServicesLoadBalancers: {Format: resource.DecimalSI},
		corev1.ResourceServicesNodePorts:     {Format: resource.DecimalSI},
	}
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort:
		result[corev1.ResourceServicesNodePorts] = *resource.NewQuantity(ports, resource.DecimalSI)
	case corev1.ServiceTypeLoadBalancer:
		// Node ports are not allocated yet when a service is admitted, so
		// the intent counts: all ports, unless the service asks for none
		// to be allocated, when only those it names count.
		if svc.Spec.AllocateLoadBalancerNodePorts != nil && !*svc.Spec.AllocateLoadBalancerNodePorts {
			result[corev1.ResourceServicesNodePorts] = *portsWithNodePorts(svc)
		} else {
			result[corev1.ResourceServicesNodePorts] = *resource.NewQuantity(ports, resource.DecimalSI)
		}
		result[corev1.ResourceServicesLoadBalancers] = *resource.NewQuantity(1, resource.DecimalSI)
	}
	return result, nil
}

func (p *serviceEvaluator) UsageStats(options kubequota.UsageStatsOptions) (kubequota.UsageStats, error) {
	return generic.CalculateUsageStats(options, p.list, generic.MatchesNoScopeFunc, p.Usage)
}

func portsWithNodePorts(svc *corev1.Service) *resource.Quantity {
	count := 0
	for _, p := range svc.Spec.Ports {
		if p.NodePort != 0 {
			count++
		}
	}
	return resource.NewQuantity(int64(count), resource.DecimalSI)
}
