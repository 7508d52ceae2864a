package crd

import (
	"fmt"
	"slices"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/sets"
)

// claimed are the names the definitions of one group in one logical
// cluster have been granted: resource names (plural, singular, short) and
// kinds (kind, list kind).
type claimed struct {
	resources, kinds sets.Set[string]
}

// claimedBy are the names that crds have been granted.
func claimedBy(crds []*apiextensions.CustomResourceDefinition) claimed {
	c := claimed{sets.New[string](), sets.New[string]()}
	for _, crd := range crds {
		n := crd.Status.AcceptedNames
		c.resources.Insert(n.Plural, n.Singular)
		c.resources.Insert(n.ShortNames...)
		c.kinds.Insert(n.Kind, n.ListKind)
	}
	return c
}

// settled tells that crd has been granted all the names it asks for and
// is established, so that there is nothing to decide for it.
func settled(crd *apiextensions.CustomResourceDefinition) bool {
	return namesEqual(crd.Spec.Names, crd.Status.AcceptedNames) &&
		apiextensions.IsCRDConditionTrue(crd, apiextensions.NamesAccepted) &&
		apiextensions.IsCRDConditionTrue(crd, apiextensions.Established)
}

// namesEqual compares names as upstream's naming controller does, an empty
// list of short names or categories being no list.
func namesEqual(a, b apiextensions.CustomResourceDefinitionNames) bool {
	return a.Plural == b.Plural && a.Singular == b.Singular && a.Kind == b.Kind && a.ListKind == b.ListKind &&
		slices.Equal(a.ShortNames, b.ShortNames) && slices.Equal(a.Categories, b.Categories)
}

// decide grants crd what it asks for of the names not yet claimed, as
// upstream's naming controller does, with the same reasons: a name crd
// already has stays its own, and a name another definition has is refused.
// It returns the names crd is granted and its NamesAccepted and
// Established conditions. The hub serves a definition as soon as it
// knows its names, so it is established then, once for good: a later
// conflict over new names leaves it served under the old ones.
func decide(crd *apiextensions.CustomResourceDefinition, taken claimed) (apiextensions.CustomResourceDefinitionNames, apiextensions.CustomResourceDefinitionCondition, apiextensions.CustomResourceDefinitionCondition) {
	asked, had := crd.Spec.Names, crd.Status.AcceptedNames
	names := had
	accepted := apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.NamesAccepted, Status: apiextensions.ConditionTrue, Reason: "NoConflicts", Message: "no conflicts found"}
	refuse := func(reason string, err error) {
		accepted.Status, accepted.Reason, accepted.Message = apiextensions.ConditionFalse, reason, err.Error()
	}
	if err := free(asked.Plural, had.Plural, taken.resources); err != nil {
		refuse("PluralConflict", err)
	} else {
		names.Plural = asked.Plural
	}
	if err := free(asked.Singular, had.Singular, taken.resources); err != nil {
		refuse("SingularConflict", err)
	} else {
		names.Singular = asked.Singular
	}
	if !slices.Equal(asked.ShortNames, had.ShortNames) {
		var errs []error
		for _, short := range asked.ShortNames {
			if !slices.Contains(had.ShortNames, short) {
				errs = append(errs, free(short, "", taken.resources))
			}
		}
		if err := utilerrors.NewAggregate(errs); err != nil {
			refuse("ShortNamesConflict", err)
		} else {
			names.ShortNames = asked.ShortNames
		}
	}
	if err := free(asked.Kind, had.Kind, taken.kinds); err != nil {
		refuse("KindConflict", err)
	} else {
		names.Kind = asked.Kind
	}
	if err := free(asked.ListKind, had.ListKind, taken.kinds); err != nil {
		refuse("ListKindConflict", err)
	} else {
		names.ListKind = asked.ListKind
	}
	names.Categories = asked.Categories

	established := apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.Established, Status: apiextensions.ConditionFalse, Reason: "NotAccepted", Message: "not all names are accepted"}
	if old := apiextensions.FindCRDCondition(crd, apiextensions.Established); old != nil {
		established = *old
	}
	if established.Status != apiextensions.ConditionTrue && accepted.Status == apiextensions.ConditionTrue {
		established = apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.Established, Status: apiextensions.ConditionTrue, Reason: "InitialNamesAccepted", Message: "the initial names have been accepted"}
	}
	return names, accepted, established
}

// free is nil if name may be granted: it is the one already granted, or
// nobody has it.
func free(name, had string, taken sets.Set[string]) error {
	if name == had || !taken.Has(name) {
		return nil
	}
	return fmt.Errorf("%q is already in use", name)
}
