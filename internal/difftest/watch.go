package difftest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"
)

// watchTimeout bounds one watch script, from the watch's start to its
// DELETED event.
const watchTimeout = 20 * time.Second

// watch runs the watch script on both servers side by side and compares
// the events each delivered: a watch of kind k's watch object, then its
// create by apply, a merge patch of a label, an update adding an
// annotation, and its delete.
func (r *runner) watch(ctx context.Context, k Kind) {
	if createOnly(k) || !k.Can("watch") || !k.Can("delete") || !k.Can("patch") || !k.Can("update") {
		return
	}
	var events [2][]map[string]any
	var errs [2]error
	var wg sync.WaitGroup
	for i, s := range []*Server{r.kube, r.hub} {
		wg.Go(func() { events[i], errs[i] = r.watchScript(ctx, s, k) })
	}
	wg.Wait()
	c := Case{Kind: k, Seed: r.opts.Seed, Index: -1, Op: "watch", Mutation: "apply, merge patch, update, delete of " + k.objectName("watch")}
	var diffs []Difference
	switch {
	case errs[0] != nil || errs[1] != nil:
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
			diffs = append(diffs, Difference{Aspect: AspectWatch, Class: fmt.Sprintf("watch: kube %v, hub %v", orOK(errs[0]), orOK(errs[1]))})
		}
	case len(events[0]) != len(events[1]) || !sameTypes(events[0], events[1]):
		diffs = append(diffs, Difference{Aspect: AspectWatch, Class: fmt.Sprintf("watch: kube sent %s, hub %s", eventTypes(events[0]), eventTypes(events[1]))})
	default:
		for i := range events[0] {
			diffs = append(diffs, compareObjects(AspectWatch, events[0][i]["object"], events[1][i]["object"])...)
		}
	}
	r.report.add(k, diffs, fmt.Sprintf("%s\nkube-apiserver's events:%s\nhub's events:%s", c, eventLines(events[0]), eventLines(events[1])))
}

// maxEventExample bounds each event in an example.
const maxEventExample = 1500

// eventLines are events one a line, each bounded, for an example.
func eventLines(events []map[string]any) string {
	var b strings.Builder
	for _, e := range events {
		obj, _ := json.Marshal(e["object"])
		if len(obj) > maxEventExample {
			obj = append(obj[:maxEventExample], "…"...)
		}
		fmt.Fprintf(&b, "\n  %s %s", e["type"], obj)
	}
	return b.String()
}

func orOK(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// watchScript watches the watch object of kind k on s, writes it, and returns the
// events delivered up to its deletion, each object normalized without its
// status, managedFields and the annotations the script's writes do not
// own, and without the MODIFIED events that changed nothing else: what
// controllers write to status and annotations (a Deployment's revision)
// is each server's own business, the sequence of the script's writes is
// not.
func (r *runner) watchScript(ctx context.Context, s *Server, k Kind) ([]map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, watchTimeout)
	defer cancel()
	name := k.objectName("watch")
	path := r.objectPath(k, name)
	resp, err := s.send(ctx, Request{Method: http.MethodGet, Path: k.collectionPath(r.opts.Namespace),
		Query: url.Values{"watch": {"true"}, "fieldSelector": {"metadata.name=" + name}}})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxExample))
		return nil, fmt.Errorf("watch answered %d %s", resp.StatusCode, body)
	}
	events := make(chan []map[string]any, 1)
	go func() { events <- readEvents(resp.Body) }()

	body, _ := json.Marshal(BaseObject(k, r.opts.Namespace, name))
	writes := []Request{
		{Method: http.MethodPatch, Path: path, ContentType: "application/apply-patch+yaml",
			Query: url.Values{"fieldManager": {baseManager}, "force": {"true"}}, Body: body},
		{Method: http.MethodPatch, Path: path, ContentType: "application/merge-patch+json",
			Query: url.Values{"fieldManager": {otherManager}}, Body: []byte(`{"metadata":{"labels":{"difftest":"patched"}}}`)},
	}
	var failed []string
	for _, w := range writes {
		if a := s.Do(ctx, w); a.Code >= 300 || a.Err != nil {
			failed = append(failed, fmt.Sprintf("%s %d", w.ContentType, a.Code))
		}
	}
	if code := update(ctx, s, path); code != http.StatusOK {
		failed = append(failed, fmt.Sprintf("update %d", code))
	}
	s.Do(ctx, Request{Method: http.MethodDelete, Path: path, Query: url.Values{"propagationPolicy": {"Background"}}})
	got := <-events
	if len(failed) > 0 {
		return got, fmt.Errorf("writes failed: %s", strings.Join(failed, ", "))
	}
	return got, nil
}

// updateAttempts bounds the reads and updates of the watch object: a
// controller of kube's may write it between the two.
const updateAttempts = 5

// update reads the object at path and updates it with an annotation
// added, again while it conflicts with another write; it returns the code
// of the last update.
func update(ctx context.Context, s *Server, path string) int {
	code := 0
	for range updateAttempts {
		a := s.Do(ctx, Request{Method: http.MethodGet, Path: path})
		if a.Code != http.StatusOK {
			return a.Code
		}
		meta, _ := a.Body["metadata"].(map[string]any)
		annotations, _ := meta["annotations"].(map[string]any)
		if annotations == nil {
			annotations = map[string]any{}
		}
		annotations["difftest"] = "updated"
		meta["annotations"] = annotations
		updated, _ := json.Marshal(a.Body)
		put := Request{Method: http.MethodPut, Path: path, Query: url.Values{"fieldManager": {otherManager}}, ContentType: "application/json", Body: updated}
		if code = s.Do(ctx, put).Code; code != http.StatusConflict {
			return code
		}
	}
	return code
}

// readEvents decodes watch events from body until a DELETED one or the end
// of the stream (the script's deadline), keeping those that change more
// than status.
func readEvents(body io.Reader) []map[string]any {
	dec := json.NewDecoder(body)
	var out []map[string]any
	for {
		var ev struct {
			Type   string         `json:"type"`
			Object map[string]any `json:"object"`
		}
		if err := dec.Decode(&ev); err != nil {
			return out
		}
		obj := Normalize(ev.Object)
		delete(obj, "status")
		if meta, ok := obj["metadata"].(map[string]any); ok {
			mf, _ := meta["managedFields"].([]any)
			dropUnowned(meta, harnessOwn(mf))
			delete(meta, "managedFields")
		}
		if n := len(out); ev.Type == "MODIFIED" && n > 0 && reflect.DeepEqual(out[n-1]["object"], obj) {
			continue
		}
		out = append(out, map[string]any{"type": ev.Type, "object": obj})
		if ev.Type == "DELETED" {
			return out
		}
	}
}

func sameTypes(a, b []map[string]any) bool {
	return eventTypes(a) == eventTypes(b)
}

func eventTypes(events []map[string]any) string {
	var types []string
	for _, e := range events {
		types = append(types, fmt.Sprint(e["type"]))
	}
	return "[" + strings.Join(types, " ") + "]"
}
