package core

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// defaultLimitRange fills in a container limit range's defaults as
// Kubernetes does: the default limit is the max, and the default request
// the default limit, or else the min.
func defaultLimitRange(obj any) {
	for i := range obj.(*corev1.LimitRange).Spec.Limits {
		l := &obj.(*corev1.LimitRange).Spec.Limits[i]
		if l.Type != corev1.LimitTypeContainer {
			continue
		}
		l.Default = withDefaults(l.Default, l.Max)
		l.DefaultRequest = withDefaults(l.DefaultRequest, l.Default, l.Min)
	}
}

// withDefaults is list with what it lacks of each of from, in turn.
func withDefaults(list corev1.ResourceList, from ...corev1.ResourceList) corev1.ResourceList {
	if list == nil {
		list = corev1.ResourceList{}
	}
	for _, f := range from {
		for name, q := range f {
			if _, ok := list[name]; !ok {
				list[name] = q.DeepCopy()
			}
		}
	}
	return list
}

// standardResources are the resource names without a domain that limit
// ranges and quotas know, and standardPrefixes the name prefixes of the
// families of such names, as hugepages of each page size.
var (
	standardResources = sets.New("cpu", "memory", "ephemeral-storage", "storage",
		"pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
		"persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
		"requests.cpu", "requests.memory", "requests.storage", "requests.ephemeral-storage",
		"limits.cpu", "limits.memory", "limits.ephemeral-storage")
	standardPrefixes = []string{"hugepages-", "requests.hugepages-", "limits.hugepages-", "count/"}
)

// validateResourceList checks the names and quantities of a list of
// resources: a standard name or a domain-prefixed one, and no negative
// amount.
func validateResourceList(list corev1.ResourceList, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for name, q := range list {
		p := path.Key(string(name))
		errs = append(errs, validateResourceName(string(name), p)...)
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(p, q.String(), "must be greater than or equal to 0"))
		}
	}
	return errs
}

func validateResourceName(name string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName(name) {
		errs = append(errs, field.Invalid(path, name, msg))
	}
	standard := standardResources.Has(name) || slices.ContainsFunc(standardPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
	if len(errs) == 0 && !strings.Contains(name, "/") && !standard {
		errs = append(errs, field.Invalid(path, name, "must be a standard resource name or fully qualified, as example.com/device"))
	}
	return errs
}

var limitTypes = []corev1.LimitType{corev1.LimitTypePod, corev1.LimitTypeContainer, corev1.LimitTypePersistentVolumeClaim}

// validateLimitRange checks each limit's lists and that they are in order:
// min, default request, default limit, max.
func validateLimitRange(lr *corev1.LimitRange) field.ErrorList {
	var errs field.ErrorList
	seen := sets.New[corev1.LimitType]()
	for i, l := range lr.Spec.Limits {
		path := field.NewPath("spec", "limits").Index(i)
		errs = append(errs, ValidateEnum(l.Type, false, limitTypes, path.Child("type"))...)
		if seen.Has(l.Type) {
			errs = append(errs, field.Duplicate(path.Child("type"), l.Type))
		}
		seen.Insert(l.Type)
		lists := []struct {
			name string
			list corev1.ResourceList
		}{{"min", l.Min}, {"defaultRequest", l.DefaultRequest}, {"default", l.Default}, {"max", l.Max}, {"maxLimitRequestRatio", l.MaxLimitRequestRatio}}
		for _, ls := range lists {
			errs = append(errs, validateResourceList(ls.list, path.Child(ls.name))...)
		}
		if l.Type == corev1.LimitTypePod && (len(l.Default) > 0 || len(l.DefaultRequest) > 0) {
			errs = append(errs, field.Forbidden(path.Child("default"), "may not be set for a limit of type Pod: defaults apply to containers"))
		}
		// Each of min, defaultRequest, default, max is at most the next
		// one given.
		for a := 0; a < 4; a++ {
			for name, low := range lists[a].list {
				for b := a + 1; b < 4; b++ {
					high, ok := lists[b].list[name]
					if !ok {
						continue
					}
					if low.Cmp(high) > 0 {
						errs = append(errs, field.Invalid(path.Child(lists[a].name).Key(string(name)), low.String(),
							fmt.Sprintf("must be less than or equal to %s value %s", lists[b].name, high.String())))
					}
					break
				}
			}
		}
		for name, ratio := range l.MaxLimitRequestRatio {
			if ratio.Cmp(resource.MustParse("1")) < 0 {
				errs = append(errs, field.Invalid(path.Child("maxLimitRequestRatio").Key(string(name)), ratio.String(), "ratio must be greater than or equal to 1"))
			}
		}
	}
	return errs
}

var quotaScopes = []corev1.ResourceQuotaScope{corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating,
	corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort, corev1.ResourceQuotaScopePriorityClass,
	corev1.ResourceQuotaScopeCrossNamespacePodAffinity, corev1.ResourceQuotaScopeVolumeAttributesClass}

func validateResourceQuota(q *corev1.ResourceQuota) field.ErrorList {
	path := field.NewPath("spec")
	errs := validateResourceList(q.Spec.Hard, path.Child("hard"))
	for i, s := range q.Spec.Scopes {
		errs = append(errs, ValidateEnum(s, false, quotaScopes, path.Child("scopes").Index(i))...)
	}
	if sel := q.Spec.ScopeSelector; sel != nil {
		ops := []corev1.ScopeSelectorOperator{corev1.ScopeSelectorOpIn, corev1.ScopeSelectorOpNotIn, corev1.ScopeSelectorOpExists, corev1.ScopeSelectorOpDoesNotExist}
		for i, e := range sel.MatchExpressions {
			p := path.Child("scopeSelector", "matchExpressions").Index(i)
			errs = append(errs, ValidateEnum(e.ScopeName, false, quotaScopes, p.Child("scopeName"))...)
			errs = append(errs, ValidateEnum(e.Operator, false, ops, p.Child("operator"))...)
		}
	}
	return errs
}

// limitRangeCells is kubectl's CREATED AT, which limit ranges show
// instead of an age.
func limitRangeCells(o runtime.Object) []any {
	return []any{o.(*corev1.LimitRange).CreationTimestamp.UTC().Format(time.RFC3339)}
}

// quotaTable is Kubernetes' table of quotas, which has the age second.
var quotaTable = registry.Table{
	Whole: true,
	Columns: []metav1.TableColumnDefinition{
		{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
		registry.Column("Age", "string", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]),
		registry.Column("Request", "string", "Request represents a minimum amount of cpu/memory that a container may consume."),
		registry.Column("Limit", "string", "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node."),
	},
	Cells: func(o runtime.Object) []any {
		q := o.(*corev1.ResourceQuota)
		request, limit := quotaUsage(q)
		return []any{q.Name, registry.Age(q.CreationTimestamp), request, limit}
	},
}

// quotaUsage is kubectl's REQUEST and LIMIT of a quota: used/hard for
// each resource, limits apart.
func quotaUsage(q *corev1.ResourceQuota) (request, limit string) {
	var requests, limits []string
	for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
		used, hard := q.Status.Used[name], q.Status.Hard[name]
		s := fmt.Sprintf("%s: %s/%s", name, used.String(), hard.String())
		if strings.HasPrefix(string(name), "limits.") {
			limits = append(limits, s)
		} else {
			requests = append(requests, s)
		}
	}
	return strings.Join(requests, ", "), strings.Join(limits, ", ")
}
