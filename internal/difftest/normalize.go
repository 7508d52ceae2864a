package difftest

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Placeholders the normalizer writes where two servers legitimately
// differ, so that what remains compares equal when they agree.
const (
	someTime      = "<time>"
	someUID       = "<uid>"
	someAllocated = "<allocated>"
	someGenerated = "<generated>"
	// theCaller stands for who the harness is to a server, which the
	// server tells in a SelfSubjectReview and records in a
	// CertificateSigningRequest.
	theCaller = "<the caller>"
)

// ignoredMetadata are the fields of metadata each server sets its own way.
var ignoredMetadata = []string{"uid", "resourceVersion", "selfLink"}

// generatedSuffix is the random suffix of names a server generates:
// generateName's, and the token volume (kube-api-access-xxxxx) the
// ServiceAccount admission plugin adds to pods.
var generatedVolume = regexp.MustCompile(`^(kube-api-access-)[a-z0-9]{5}$`)

// Normalize returns a copy of obj, an object a server answered, without
// what legitimately differs between two servers: uid (also where the
// object names itself, as a Job's selector does), resourceVersion,
// timestamps, managedFields' times, generated names (also where the
// object names itself, as a Job's labels do), and the cluster IPs
// and node ports each server allocates (whether one was allocated still
// counts).
func Normalize(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	obj = deepCopy(obj)
	meta, _ := obj["metadata"].(map[string]any)
	uid, _ := meta["uid"].(string)
	generated := values{}
	if meta != nil {
		for _, f := range ignoredMetadata {
			delete(meta, f)
		}
		if prefix, ok := meta["generateName"].(string); ok && prefix != "" {
			if name, ok := meta["name"].(string); ok && strings.HasPrefix(name, prefix) {
				generated[name] = prefix + someGenerated
			}
		}
		if mf, ok := meta["managedFields"].([]any); ok {
			for _, e := range mf {
				if e, ok := e.(map[string]any); ok {
					delete(e, "time")
				}
			}
		}
	}
	if spec, ok := obj["spec"].(map[string]any); ok && obj["kind"] == "Service" {
		normalizeServiceSpec(spec)
	}
	// The harness is a user of each server, not the same one: who it is
	// is each server's answer, that it is told is compared.
	if status, ok := obj["status"].(map[string]any); ok && obj["kind"] == "SelfSubjectReview" && status["userInfo"] != nil {
		status["userInfo"] = theCaller
	}
	// kube-apiserver lists a SelfSubjectRulesReview's rules in the order
	// its informer's map yields the bindings, another at each review:
	// which rules are told is compared, not their order.
	if status, ok := obj["status"].(map[string]any); ok && obj["kind"] == "SelfSubjectRulesReview" {
		for _, f := range []string{"resourceRules", "nonResourceRules"} {
			if rules, ok := status[f].([]any); ok {
				sortByJSON(rules)
			}
		}
	}
	if spec, ok := obj["spec"].(map[string]any); ok && obj["kind"] == "CertificateSigningRequest" {
		for _, f := range []string{"username", "uid", "groups", "extra"} {
			if spec[f] != nil {
				spec[f] = theCaller
			}
		}
	}
	if uid != "" {
		generated[uid] = someUID
	}
	normalizeValues(obj, "", generated)
	return obj
}

// sortByJSON sorts list by the JSON encoding of its elements.
func sortByJSON(list []any) {
	key := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	slices.SortStableFunc(list, func(a, b any) int { return strings.Compare(key(a), key(b)) })
}

// values maps what a server generated for an object, its uid and its
// generated name, to their placeholders.
type values map[string]string

// normalizeValues replaces, under v, the generated values by their
// placeholders, times by one, and generated volume names' suffixes.
func normalizeValues(v any, key string, generated values) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalizeValues(e, k, generated)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = normalizeValues(e, key, generated)
		}
		return v
	case string:
		if placeholder, ok := generated[v]; ok {
			return placeholder
		}
		switch {
		case isTimeKey(key) && isTime(v):
			return someTime
		case generatedVolume.MatchString(v):
			return generatedVolume.ReplaceAllString(v, "${1}"+someGenerated)
		}
		return v
	default:
		return v
	}
}

func isTimeKey(key string) bool {
	return strings.HasSuffix(key, "Time") || strings.HasSuffix(key, "Timestamp") || key == "time"
}

func isTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// normalizeServiceSpec replaces the addresses and ports a server allocates
// by a placeholder: which ones is each server's choice, that one was is
// not.
func normalizeServiceSpec(spec map[string]any) {
	if ip, ok := spec["clusterIP"].(string); ok && isIP(ip) {
		spec["clusterIP"] = someAllocated
	}
	if ips, ok := spec["clusterIPs"].([]any); ok {
		for i, ip := range ips {
			if s, ok := ip.(string); ok && isIP(s) {
				ips[i] = someAllocated
			}
		}
	}
	if ports, ok := spec["ports"].([]any); ok {
		for _, p := range ports {
			if p, ok := p.(map[string]any); ok && p["nodePort"] != nil {
				p["nodePort"] = someAllocated
			}
		}
	}
	if spec["healthCheckNodePort"] != nil {
		spec["healthCheckNodePort"] = someAllocated
	}
}

func isIP(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

// withoutControllers is a copy of a, its object without what controllers
// wrote to it since it was stored: its status, the managedFields of
// managers other than the harness's, and the annotations none of the
// harness's managers owns (a Deployment's revision). An update or patch
// answers the object as stored, and the controllers of both servers
// (deployments, quotas, disruption budgets…) write to the base objects
// between the cases, each at its own time; what the request itself did
// is compared.
func (a Answer) withoutControllers() Answer {
	if a.Body == nil || a.Body["kind"] == "Status" {
		return a
	}
	a.Body = deepCopy(a.Body)
	delete(a.Body, "status")
	meta, _ := a.Body["metadata"].(map[string]any)
	if mf, ok := meta["managedFields"].([]any); ok {
		own := harnessOwn(mf)
		meta["managedFields"] = own
		dropUnowned(meta, own)
	}
	return a
}

// harnessOwn are the entries of managedFields mf of the harness's
// managers.
func harnessOwn(mf []any) []any {
	var own []any
	for _, e := range mf {
		if e, ok := e.(map[string]any); ok && strings.HasPrefix(fmt.Sprint(e["manager"]), baseManager) {
			own = append(own, e)
		}
	}
	return own
}

// dropUnowned deletes from meta the annotations that no entry of own,
// managedFields entries, owns.
func dropUnowned(meta map[string]any, own []any) {
	annotations, _ := meta["annotations"].(map[string]any)
	for key := range annotations {
		owned := false
		for _, e := range own {
			fields, _ := e.(map[string]any)["fieldsV1"].(map[string]any)
			m, _ := fields["f:metadata"].(map[string]any)
			a, _ := m["f:annotations"].(map[string]any)
			if _, ok := a["f:"+key]; ok {
				owned = true
				break
			}
		}
		if !owned {
			delete(annotations, key)
		}
	}
	if annotations != nil && len(annotations) == 0 {
		delete(meta, "annotations")
	}
}
