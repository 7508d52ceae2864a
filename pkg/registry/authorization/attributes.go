package authorization

import (
	"fmt"
	"strings"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// What a review asks, as authorizer attributes, lifted from
// k8s.io/kubernetes@v1.37.1 pkg/registry/authorization/util/helpers.go
// onto the v1 types.

// Lifted: ResourceAttributesFrom.
func resourceAttributesFrom(u user.Info, in authorizationv1.ResourceAttributes) authorizer.AttributesRecord {
	ret := authorizer.AttributesRecord{
		User:            u,
		Verb:            in.Verb,
		Namespace:       in.Namespace,
		APIGroup:        in.Group,
		APIVersion:      matchAllVersionIfEmpty(in.Version),
		Resource:        in.Resource,
		Subresource:     in.Subresource,
		Name:            in.Name,
		ResourceRequest: true,
	}
	if in.LabelSelector != nil {
		if len(in.LabelSelector.RawSelector) > 0 {
			selector, err := labels.Parse(in.LabelSelector.RawSelector)
			if err != nil {
				ret.LabelSelectorRequirements, ret.LabelSelectorParsingErr = nil, err
			} else {
				requirements, _ := selector.Requirements()
				ret.LabelSelectorRequirements, ret.LabelSelectorParsingErr = requirements, nil
			}
		}
		if len(in.LabelSelector.Requirements) > 0 {
			ret.LabelSelectorRequirements, ret.LabelSelectorParsingErr = labelSelectorAsSelector(in.LabelSelector.Requirements)
		}
	}
	if in.FieldSelector != nil {
		if len(in.FieldSelector.RawSelector) > 0 {
			selector, err := fields.ParseSelector(in.FieldSelector.RawSelector)
			if err != nil {
				ret.FieldSelectorRequirements, ret.FieldSelectorParsingErr = nil, err
			} else {
				ret.FieldSelectorRequirements, ret.FieldSelectorParsingErr = selector.Requirements(), nil
			}
		}
		if len(in.FieldSelector.Requirements) > 0 {
			ret.FieldSelectorRequirements, ret.FieldSelectorParsingErr = fieldSelectorAsSelector(in.FieldSelector.Requirements)
		}
	}
	return ret
}

var labelSelectorOpToSelectionOp = map[metav1.LabelSelectorOperator]selection.Operator{
	metav1.LabelSelectorOpIn:           selection.In,
	metav1.LabelSelectorOpNotIn:        selection.NotIn,
	metav1.LabelSelectorOpExists:       selection.Exists,
	metav1.LabelSelectorOpDoesNotExist: selection.DoesNotExist,
}

// Lifted: labelSelectorAsSelector.
func labelSelectorAsSelector(requirements []metav1.LabelSelectorRequirement) (labels.Requirements, error) {
	if len(requirements) == 0 {
		return nil, nil
	}
	reqs := make([]labels.Requirement, 0, len(requirements))
	var errs []error
	for _, expr := range requirements {
		op, ok := labelSelectorOpToSelectionOp[expr.Operator]
		if !ok {
			errs = append(errs, fmt.Errorf("%q is not a valid label selector operator", expr.Operator))
			continue
		}
		values := expr.Values
		if len(values) == 0 {
			values = nil
		}
		req, err := labels.NewRequirement(expr.Key, op, values)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		reqs = append(reqs, *req)
	}
	if len(reqs) == 0 {
		reqs = nil
	}
	return labels.Requirements(reqs), utilerrors.NewAggregate(errs)
}

// Lifted: fieldSelectorAsSelector.
func fieldSelectorAsSelector(requirements []metav1.FieldSelectorRequirement) (fields.Requirements, error) {
	if len(requirements) == 0 {
		return nil, nil
	}
	reqs := make([]fields.Requirement, 0, len(requirements))
	var errs []error
	for _, expr := range requirements {
		if len(expr.Values) > 1 {
			errs = append(errs, fmt.Errorf("fieldSelectors do not yet support multiple values"))
			continue
		}
		switch expr.Operator {
		case metav1.FieldSelectorOpIn:
			if len(expr.Values) != 1 {
				errs = append(errs, fmt.Errorf("fieldSelectors in must have one value"))
				continue
			}
			reqs = append(reqs, fields.Requirement{Field: expr.Key, Operator: selection.Equals, Value: expr.Values[0]})
		case metav1.FieldSelectorOpNotIn:
			if len(expr.Values) != 1 {
				errs = append(errs, fmt.Errorf("fieldSelectors not in must have one value"))
				continue
			}
			reqs = append(reqs, fields.Requirement{Field: expr.Key, Operator: selection.NotEquals, Value: expr.Values[0]})
		case metav1.FieldSelectorOpExists, metav1.FieldSelectorOpDoesNotExist:
			errs = append(errs, fmt.Errorf("fieldSelectors do not yet support %v", expr.Operator))
			continue
		default:
			errs = append(errs, fmt.Errorf("%q is not a valid field selector operator", expr.Operator))
			continue
		}
	}
	if len(reqs) == 0 {
		reqs = nil
	}
	return fields.Requirements(reqs), utilerrors.NewAggregate(errs)
}

// Lifted: NonResourceAttributesFrom.
func nonResourceAttributesFrom(u user.Info, in authorizationv1.NonResourceAttributes) authorizer.AttributesRecord {
	return authorizer.AttributesRecord{User: u, ResourceRequest: false, Path: in.Path, Verb: in.Verb}
}

// Lifted: AuthorizationAttributesFrom, the attributes of the user a
// SubjectAccessReview names.
func authorizationAttributesFrom(spec authorizationv1.SubjectAccessReviewSpec) authorizer.AttributesRecord {
	var extra map[string][]string
	if spec.Extra != nil {
		extra = make(map[string][]string, len(spec.Extra))
		for k, v := range spec.Extra {
			extra[k] = []string(v)
		}
	}
	u := &user.DefaultInfo{Name: spec.User, Groups: spec.Groups, UID: spec.UID, Extra: extra}
	if spec.ResourceAttributes != nil {
		return resourceAttributesFrom(u, *spec.ResourceAttributes)
	}
	return nonResourceAttributesFrom(u, *spec.NonResourceAttributes)
}

func matchAllVersionIfEmpty(version string) string {
	if len(version) == 0 {
		return "*"
	}
	return version
}

// Lifted: BuildEvaluationError.
func buildEvaluationError(evaluationError error, attrs authorizer.AttributesRecord) string {
	var evaluationErrors []string
	if evaluationError != nil {
		evaluationErrors = append(evaluationErrors, evaluationError.Error())
	}
	if reqs, err := attrs.GetFieldSelector(); err != nil {
		if len(reqs) > 0 {
			evaluationErrors = append(evaluationErrors, "spec.resourceAttributes.fieldSelector partially ignored due to parse error")
		} else {
			evaluationErrors = append(evaluationErrors, "spec.resourceAttributes.fieldSelector ignored due to parse error")
		}
	}
	if reqs, err := attrs.GetLabelSelector(); err != nil {
		if len(reqs) > 0 {
			evaluationErrors = append(evaluationErrors, "spec.resourceAttributes.labelSelector partially ignored due to parse error")
		} else {
			evaluationErrors = append(evaluationErrors, "spec.resourceAttributes.labelSelector ignored due to parse error")
		}
	}
	return strings.Join(evaluationErrors, "; ")
}
