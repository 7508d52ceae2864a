package authorization

import (
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The validation of the reviews, lifted from
// k8s.io/kubernetes@v1.37.1 pkg/apis/authorization/validation/validation.go
// onto the v1 types the hub serves them as. Kubernetes also runs
// declarative validation on them, which marks these same errors.

// exactlyOne is kube's message for a spec with both or neither
// attributes.
const exactlyOne = `exactly one of nonResourceAttributes or resourceAttributes must be specified`

// validateUnion is the first check of ValidateSubjectAccessReviewSpec and
// ValidateSelfSubjectAccessReviewSpec.
func validateUnion(ra *authorizationv1.ResourceAttributes, nra *authorizationv1.NonResourceAttributes, fldPath *field.Path) field.ErrorList {
	if (ra == nil) == (nra == nil) {
		return field.ErrorList{field.Invalid(fldPath, nra, exactlyOne).WithOrigin("union")}
	}
	return nil
}

// Lifted: ValidateSubjectAccessReviewSpec.
func validateSubjectAccessReviewSpec(spec authorizationv1.SubjectAccessReviewSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateUnion(spec.ResourceAttributes, spec.NonResourceAttributes, fldPath)
	if len(spec.User) == 0 && len(spec.Groups) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("user"), spec.User, `at least one of user or group must be specified`))
	}
	return append(allErrs, validateResourceAttributes(spec.ResourceAttributes, field.NewPath("spec.resourceAttributes"))...)
}

// Lifted: ValidateSubjectAccessReview.
func validateSubjectAccessReview(sar *authorizationv1.SubjectAccessReview) field.ErrorList {
	allErrs := validateSubjectAccessReviewSpec(sar.Spec, field.NewPath("spec"))
	meta := sar.ObjectMeta
	meta.ManagedFields = nil
	if !apiequality.Semantic.DeepEqual(metav1.ObjectMeta{}, meta) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("metadata"), sar.ObjectMeta, `must be empty`))
	}
	return allErrs
}

// Lifted: ValidateSelfSubjectAccessReview.
func validateSelfSubjectAccessReview(sar *authorizationv1.SelfSubjectAccessReview) field.ErrorList {
	allErrs := validateUnion(sar.Spec.ResourceAttributes, sar.Spec.NonResourceAttributes, field.NewPath("spec"))
	allErrs = append(allErrs, validateResourceAttributes(sar.Spec.ResourceAttributes, field.NewPath("spec.resourceAttributes"))...)
	meta := sar.ObjectMeta
	meta.ManagedFields = nil
	if !apiequality.Semantic.DeepEqual(metav1.ObjectMeta{}, meta) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("metadata"), sar.ObjectMeta, `must be empty`))
	}
	return allErrs
}

// Lifted: ValidateLocalSubjectAccessReview.
func validateLocalSubjectAccessReview(sar *authorizationv1.LocalSubjectAccessReview) field.ErrorList {
	allErrs := validateSubjectAccessReviewSpec(sar.Spec, field.NewPath("spec"))
	meta := sar.ObjectMeta
	meta.Namespace = ""
	meta.ManagedFields = nil
	if !apiequality.Semantic.DeepEqual(metav1.ObjectMeta{}, meta) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("metadata"), sar.ObjectMeta, `must be empty except for namespace`))
	}
	if sar.Spec.ResourceAttributes != nil && sar.Spec.ResourceAttributes.Namespace != sar.Namespace {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec.resourceAttributes.namespace"), sar.Spec.ResourceAttributes.Namespace, `must match metadata.namespace`))
	}
	if sar.Spec.NonResourceAttributes != nil {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec.nonResourceAttributes"), sar.Spec.NonResourceAttributes, `disallowed on this kind of request`))
	}
	return allErrs
}

// Lifted: validateResourceAttributes.
func validateResourceAttributes(ra *authorizationv1.ResourceAttributes, fldPath *field.Path) field.ErrorList {
	if ra == nil {
		return nil
	}
	allErrs := field.ErrorList{}
	if s := ra.FieldSelector; s != nil {
		path := fldPath.Child("fieldSelector")
		allErrs = append(allErrs, validateSelectorAttributes(s.RawSelector, len(s.Requirements), path)...)
		opts := metav1validation.FieldSelectorValidationOptions{AllowUnknownOperatorInRequirement: true}
		for i, r := range s.Requirements {
			allErrs = append(allErrs, metav1validation.ValidateFieldSelectorRequirement(r, opts, path.Child("requirements").Index(i))...)
		}
	}
	if s := ra.LabelSelector; s != nil {
		path := fldPath.Child("labelSelector")
		allErrs = append(allErrs, validateSelectorAttributes(s.RawSelector, len(s.Requirements), path)...)
		opts := metav1validation.LabelSelectorValidationOptions{AllowUnknownOperatorInRequirement: true}
		for i, r := range s.Requirements {
			allErrs = append(allErrs, metav1validation.ValidateLabelSelectorRequirement(r, opts, path.Child("requirements").Index(i))...)
		}
	}
	return allErrs
}

// validateSelectorAttributes is what validateFieldSelectorAttributes and
// validateLabelSelectorAttributes share: a raw selector or requirements,
// not both.
func validateSelectorAttributes(raw string, requirements int, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	if len(raw) > 0 && requirements > 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("rawSelector"), raw, "may not specified at the same time as requirements"))
	}
	if len(raw) == 0 && requirements == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("requirements"), fmt.Sprintf("when %s is specified, requirements or rawSelector is required", fldPath)))
	}
	return allErrs
}
