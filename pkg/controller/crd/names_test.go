package crd

import (
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
)

func definition(asked, had apiextensions.CustomResourceDefinitionNames, conditions ...apiextensions.CustomResourceDefinitionCondition) *apiextensions.CustomResourceDefinition {
	return &apiextensions.CustomResourceDefinition{
		Spec:   apiextensions.CustomResourceDefinitionSpec{Group: "example.com", Names: asked},
		Status: apiextensions.CustomResourceDefinitionStatus{AcceptedNames: had, Conditions: conditions},
	}
}

func names(plural, singular, kind, listKind string, shortNames ...string) apiextensions.CustomResourceDefinitionNames {
	return apiextensions.CustomResourceDefinitionNames{Plural: plural, Singular: singular, Kind: kind, ListKind: listKind, ShortNames: shortNames}
}

func TestDecide(t *testing.T) {
	widgets := names("widgets", "widget", "Widget", "WidgetList", "wd")
	none := apiextensions.CustomResourceDefinitionNames{}
	established := apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.Established, Status: apiextensions.ConditionTrue, Reason: "InitialNamesAccepted"}
	for _, tc := range []struct {
		name         string
		crd          *apiextensions.CustomResourceDefinition
		others       []*apiextensions.CustomResourceDefinition
		wantNames    apiextensions.CustomResourceDefinitionNames
		wantAccepted apiextensions.ConditionStatus
		wantReason   string
		wantMessage  string
		wantEstab    apiextensions.ConditionStatus
		wantEstabWhy string
	}{
		{
			name: "new, alone", crd: definition(widgets, none),
			wantNames: widgets, wantAccepted: apiextensions.ConditionTrue, wantReason: "NoConflicts", wantMessage: "no conflicts found",
			wantEstab: apiextensions.ConditionTrue, wantEstabWhy: "InitialNamesAccepted",
		},
		{
			name: "plural taken", crd: definition(widgets, none),
			others:    []*apiextensions.CustomResourceDefinition{definition(none, names("widgets", "thing", "Thing", "ThingList"))},
			wantNames: names("", "widget", "Widget", "WidgetList", "wd"), wantAccepted: apiextensions.ConditionFalse, wantReason: "PluralConflict", wantMessage: `"widgets" is already in use`,
			wantEstab: apiextensions.ConditionFalse, wantEstabWhy: "NotAccepted",
		},
		{
			name: "singular taken as another's short name", crd: definition(widgets, none),
			others:    []*apiextensions.CustomResourceDefinition{definition(none, names("things", "thing", "Thing", "ThingList", "widget"))},
			wantNames: names("widgets", "", "Widget", "WidgetList", "wd"), wantAccepted: apiextensions.ConditionFalse, wantReason: "SingularConflict", wantMessage: `"widget" is already in use`,
			wantEstab: apiextensions.ConditionFalse, wantEstabWhy: "NotAccepted",
		},
		{
			name: "short name taken", crd: definition(widgets, none),
			others:    []*apiextensions.CustomResourceDefinition{definition(none, names("things", "thing", "Thing", "ThingList", "wd"))},
			wantNames: names("widgets", "widget", "Widget", "WidgetList"), wantAccepted: apiextensions.ConditionFalse, wantReason: "ShortNamesConflict", wantMessage: `"wd" is already in use`,
			wantEstab: apiextensions.ConditionFalse, wantEstabWhy: "NotAccepted",
		},
		{
			name: "kind taken", crd: definition(widgets, none),
			others:    []*apiextensions.CustomResourceDefinition{definition(none, names("things", "thing", "Widget", "ThingList"))},
			wantNames: names("widgets", "widget", "", "WidgetList", "wd"), wantAccepted: apiextensions.ConditionFalse, wantReason: "KindConflict", wantMessage: `"Widget" is already in use`,
			wantEstab: apiextensions.ConditionFalse, wantEstabWhy: "NotAccepted",
		},
		{
			name: "list kind taken", crd: definition(widgets, none),
			others:    []*apiextensions.CustomResourceDefinition{definition(none, names("things", "thing", "Thing", "WidgetList"))},
			wantNames: names("widgets", "widget", "Widget", "", "wd"), wantAccepted: apiextensions.ConditionFalse, wantReason: "ListKindConflict", wantMessage: `"WidgetList" is already in use`,
			wantEstab: apiextensions.ConditionFalse, wantEstabWhy: "NotAccepted",
		},
		{
			name: "its own names stay its own", crd: definition(widgets, widgets),
			wantNames: widgets, wantAccepted: apiextensions.ConditionTrue, wantReason: "NoConflicts", wantMessage: "no conflicts found",
			wantEstab: apiextensions.ConditionTrue, wantEstabWhy: "InitialNamesAccepted",
		},
		{
			name: "a new short name taken keeps an established definition served", crd: definition(names("widgets", "widget", "Widget", "WidgetList", "wd", "w"), widgets, established),
			others:    []*apiextensions.CustomResourceDefinition{definition(none, names("things", "thing", "Thing", "ThingList", "w"))},
			wantNames: widgets, wantAccepted: apiextensions.ConditionFalse, wantReason: "ShortNamesConflict", wantMessage: `"w" is already in use`,
			wantEstab: apiextensions.ConditionTrue, wantEstabWhy: "InitialNamesAccepted",
		},
	} {
		got, accepted, estab := decide(tc.crd, claimedBy(append([]*apiextensions.CustomResourceDefinition{tc.crd}, tc.others...)))
		if !namesEqual(got, tc.wantNames) {
			t.Errorf("%s: names %+v, want %+v", tc.name, got, tc.wantNames)
		}
		if accepted.Type != apiextensions.NamesAccepted || accepted.Status != tc.wantAccepted || accepted.Reason != tc.wantReason || accepted.Message != tc.wantMessage {
			t.Errorf("%s: NamesAccepted %+v, want %s %s %q", tc.name, accepted, tc.wantAccepted, tc.wantReason, tc.wantMessage)
		}
		if estab.Type != apiextensions.Established || estab.Status != tc.wantEstab || estab.Reason != tc.wantEstabWhy {
			t.Errorf("%s: Established %+v, want %s %s", tc.name, estab, tc.wantEstab, tc.wantEstabWhy)
		}
	}
}

func TestSettled(t *testing.T) {
	widgets := names("widgets", "widget", "Widget", "WidgetList")
	accepted := apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.NamesAccepted, Status: apiextensions.ConditionTrue}
	established := apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.Established, Status: apiextensions.ConditionTrue}
	if !settled(definition(widgets, widgets, accepted, established)) {
		t.Error("a definition with its names, accepted and established, is not settled")
	}
	if settled(definition(widgets, widgets, accepted)) {
		t.Error("a definition not established is settled")
	}
	if settled(definition(names("widgets", "widget", "Widget", "WidgetList", "wd"), widgets, accepted, established)) {
		t.Error("a definition asking for a new short name is settled")
	}
}
