package difftest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Aspect is what part of an answer a Difference is in.
type Aspect string

const (
	AspectCode    Aspect = "code"
	AspectReason  Aspect = "reason"
	AspectCause   Aspect = "cause"
	AspectMessage Aspect = "message"
	AspectObject  Aspect = "object"
	AspectTable   Aspect = "table"
	AspectWatch   Aspect = "watch"
	// AspectServed is a kind kube-apiserver serves and the hub does not.
	AspectServed Aspect = "served"
)

// Difference is one way the hub's answer differs from kube-apiserver's.
type Difference struct {
	Aspect Aspect
	// Path is the field path it is at, list indexes as [*]: of the
	// object, of a cause's field, or of a table's column.
	Path string
	// Class names the difference for counting: the same class in two
	// cases is the same divergence.
	Class string
	// Codes are, for a difference of code, kube-apiserver's and the hub's,
	// and SameMessage whether both answered a Status with the same
	// message: the same refusal, told with another code.
	Codes       [2]int
	SameMessage bool
}

// maxObjectDifferences bounds the differences one pair of objects gives,
// so that a completely different answer is not thousands of classes.
const maxObjectDifferences = 20

// CompareAnswers lists how hub's answer differs from kube's: code, and
// then, both being a Status, its reason, causes and message, or, both
// being objects, the normalized objects field by field.
func CompareAnswers(kube, hub Answer) []Difference {
	if kube.Err != nil || hub.Err != nil {
		if kube.Err != nil && hub.Err != nil {
			return nil
		}
		return []Difference{{Aspect: AspectCode, Class: fmt.Sprintf("no answer: kube %v, hub %v", errString(kube.Err), errString(hub.Err))}}
	}
	ks, hs := asStatus(kube), asStatus(hub)
	if kube.Code != hub.Code {
		return []Difference{{Aspect: AspectCode, Class: fmt.Sprintf("code: kube %d %s, hub %d %s", kube.Code, ks.reason(), hub.Code, hs.reason()),
			Codes: [2]int{kube.Code, hub.Code}, SameMessage: ks != nil && hs != nil && sameLines(ks.Message, hs.Message)}}
	}
	if ks != nil || hs != nil {
		if ks == nil || hs == nil {
			return []Difference{{Aspect: AspectCode, Class: fmt.Sprintf("code %d: a Status from one server only", kube.Code)}}
		}
		return compareStatus(ks, hs)
	}
	return compareObjects(AspectObject, Normalize(kube.Body), Normalize(hub.Body))
}

// sameLines reports whether two messages have the same lines, in any
// order: upstream lists the errors of one typed patch object in the order
// structured-merge-diff walks a map, which is no fixed one.
func sameLines(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

func errString(err error) string {
	if err == nil {
		return "answered"
	}
	return "failed"
}

// status is the part of a metav1.Status the comparison reads; decoded from
// the JSON answered, since a Status's details do not round-trip through
// the typed struct unchanged (an empty field is dropped).
type status struct {
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Details struct {
		Causes []struct {
			Type    string `json:"reason"`
			Message string `json:"message"`
			Field   string `json:"field"`
		} `json:"causes"`
	} `json:"details"`
}

// reason is s's reason, or nothing for an answer that is no Status.
func (s *status) reason() string {
	if s == nil {
		return ""
	}
	return s.Reason
}

func asStatus(a Answer) *status {
	if a.Body == nil || a.Body["kind"] != "Status" {
		if a.Code >= 300 {
			// A failure that is not a Status is itself worth telling.
			return &status{Reason: "(not a Status)", Message: string(a.Raw)}
		}
		return nil
	}
	var s status
	_ = json.Unmarshal(a.Raw, &s)
	return &s
}

func compareStatus(kube, hub *status) []Difference {
	var diffs []Difference
	if kube.Reason != hub.Reason {
		diffs = append(diffs, Difference{Aspect: AspectReason, Class: fmt.Sprintf("reason: kube %s, hub %s", kube.Reason, hub.Reason)})
	}
	kc, hc := causeKeys(kube), causeKeys(hub)
	for _, only := range []struct {
		side       string
		have, lack []string
	}{{"kube", kc, hc}, {"hub", hc, kc}} {
		for _, c := range multisetMinus(only.have, only.lack) {
			field, typ, _ := strings.Cut(c, "\x00")
			// A cause both tell, one of them more than once, is told
			// apart from one that only one server finds.
			how := "only at"
			if _, found := slices.BinarySearch(only.lack, c); found {
				how = "repeated at"
			}
			diffs = append(diffs, Difference{Aspect: AspectCause, Path: indexless(field),
				Class: fmt.Sprintf("cause %s %s: %s %s", how, only.side, indexless(field), typ)})
		}
	}
	if len(diffs) == 0 && messages(kube) != messages(hub) {
		diffs = append(diffs, Difference{Aspect: AspectMessage, Class: "message: " + kube.Reason})
	}
	return diffs
}

// causeKeys are the field and type of each cause, sorted.
func causeKeys(s *status) []string {
	var keys []string
	for _, c := range s.Details.Causes {
		keys = append(keys, c.Field+"\x00"+c.Type)
	}
	slices.Sort(keys)
	return keys
}

func messages(s *status) string {
	m := []string{s.Message}
	for _, c := range s.Details.Causes {
		m = append(m, c.Field+": "+c.Message)
	}
	slices.Sort(m[1:])
	return strings.Join(m, "\n")
}

// multisetMinus is what of have, sorted, lack does not hold, counting
// repeats.
func multisetMinus(have, lack []string) []string {
	var out []string
	i := 0
	for _, h := range have {
		for i < len(lack) && lack[i] < h {
			i++
		}
		if i < len(lack) && lack[i] == h {
			i++
			continue
		}
		out = append(out, h)
	}
	return out
}

// compareObjects lists the field paths where two normalized JSON values
// differ.
func compareObjects(aspect Aspect, kube, hub any) []Difference {
	var diffs []Difference
	diffValues(aspect, "", kube, hub, &diffs)
	return diffs
}

func diffValues(aspect Aspect, path string, kube, hub any, out *[]Difference) {
	if len(*out) >= maxObjectDifferences || reflect.DeepEqual(kube, hub) {
		return
	}
	add := func(what string) {
		p := indexless(path)
		*out = append(*out, Difference{Aspect: aspect, Path: p, Class: fmt.Sprintf("%s: %s %s", aspect, orTop(p), what)})
	}
	switch k := kube.(type) {
	case map[string]any:
		h, ok := hub.(map[string]any)
		if !ok {
			add("differs")
			return
		}
		for _, key := range sortedKeys(k) {
			hv, present := h[key]
			m, isMap := k[key].(map[string]any)
			isMap = isMap && len(m) > 0
			switch {
			case !present && isMap:
				// Down to the keys that are missing, so that a missing
				// annotation is told by its key.
				diffValues(aspect, join(path, key), k[key], map[string]any{}, out)
			case !present:
				*out = append(*out, Difference{Aspect: aspect, Path: indexless(join(path, key)),
					Class: fmt.Sprintf("%s: %s only at kube", aspect, indexless(join(path, key)))})
			default:
				diffValues(aspect, join(path, key), k[key], hv, out)
			}
		}
		for _, key := range sortedKeys(h) {
			if _, present := k[key]; present {
				continue
			}
			if m, isMap := h[key].(map[string]any); isMap && len(m) > 0 {
				diffValues(aspect, join(path, key), map[string]any{}, h[key], out)
				continue
			}
			*out = append(*out, Difference{Aspect: aspect, Path: indexless(join(path, key)),
				Class: fmt.Sprintf("%s: %s only at hub", aspect, indexless(join(path, key)))})
		}
	case []any:
		h, ok := hub.([]any)
		if !ok || len(h) != len(k) {
			add("differs in length")
			return
		}
		for i := range k {
			diffValues(aspect, fmt.Sprintf("%s[%d]", path, i), k[i], h[i], out)
		}
	default:
		add("differs")
	}
}

func join(path, key string) string {
	if strings.ContainsAny(key, "./") || key == "" {
		return path + "[" + key + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func orTop(p string) string {
	if p == "" {
		return "(whole)"
	}
	return p
}
