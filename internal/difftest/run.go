package difftest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Options shape a run.
type Options struct {
	Seed int64
	// Cases is how many cases each kind gets.
	Cases int
	// Only, a case ID (apps/v1/Deployment#17), runs that case alone and
	// logs its request and both answers whatever they are.
	Only string
	// Kinds are the IDs of the kinds to run; all that both serve when
	// empty.
	Kinds []string
	// Namespace holds the namespaced objects; Run makes it.
	Namespace string
	// Parallel is how many cases are in flight at once.
	Parallel int
	// Logf logs progress and, with Only, the case.
	Logf func(format string, args ...any)
}

// runner is one run's state.
type runner struct {
	kube, hub *Server
	opts      Options
	report    *Report
}

// Run sends every case of every kind both servers serve to both and
// reports how their answers differ.
func Run(ctx context.Context, kube, hub *Server, opts Options) (*Report, error) {
	served, unserved, err := Discover(kube, hub)
	if err != nil {
		return nil, err
	}
	only, onlyIndex := "", -1
	if opts.Only != "" {
		id, index, ok := strings.Cut(opts.Only, "#")
		n, err := strconv.Atoi(index)
		if !ok || err != nil {
			return nil, fmt.Errorf("case %q: want KIND#INDEX, as apps/v1/Deployment#17", opts.Only)
		}
		only, onlyIndex = id, n
	}
	r := &runner{kube: kube, hub: hub, opts: opts, report: newReport(opts.Seed, unserved)}
	var kinds []Kind
	for _, k := range served {
		if (only == "" || k.ID() == only) && (len(opts.Kinds) == 0 || slices.Contains(opts.Kinds, k.ID())) {
			kinds = append(kinds, k)
		}
	}
	for _, id := range opts.Kinds {
		if !slices.ContainsFunc(served, func(k Kind) bool { return k.ID() == id }) {
			return nil, fmt.Errorf("kind %s: not a built-in kind both servers serve", id)
		}
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("no kind to run: both servers serve %d, none of them asked for", len(served))
	}
	if err := r.setUp(ctx); err != nil {
		return nil, err
	}
	// The base objects that change how others are admitted go first, so
	// that every other base meets them on both servers alike.
	first, rest := splitKinds(kinds, shapesAdmission)
	r.forEachKind(first, func(k Kind) { r.base(ctx, k) })
	r.forEachKind(rest, func(k Kind) { r.base(ctx, k) })
	if onlyIndex >= 0 {
		r.runCase(ctx, kinds[0], onlyIndex)
	} else {
		r.runCases(ctx, kinds)
		r.forEachKind(kinds, func(k Kind) {
			r.table(ctx, k)
			r.watch(ctx, k)
		})
	}
	r.forEachKind(kinds, func(k Kind) { r.cleanUp(ctx, k) })
	return r.report, ctx.Err()
}

// shapesAdmission tells whether k's objects change how other objects of
// their namespace are admitted: a LimitRange gives pods its defaults.
func shapesAdmission(k Kind) bool { return k.Group == "" && k.Kind == "LimitRange" }

// splitKinds is kinds split into those that in says and the others.
func splitKinds(kinds []Kind, in func(Kind) bool) (yes, no []Kind) {
	for _, k := range kinds {
		if in(k) {
			yes = append(yes, k)
		} else {
			no = append(no, k)
		}
	}
	return yes, no
}

// forEachKind calls f for every kind side by side and waits.
func (r *runner) forEachKind(kinds []Kind, f func(Kind)) {
	var wg sync.WaitGroup
	for _, k := range kinds {
		wg.Go(func() { f(k) })
	}
	wg.Wait()
}

// setUp makes the namespace of the namespaced objects on both servers, and
// its default ServiceAccount, which pods need and which kube's
// controllers may not have made yet.
func (r *runner) setUp(ctx context.Context) error {
	ns := map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": r.opts.Namespace}}
	sa := map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default", "namespace": r.opts.Namespace}}
	for _, s := range []*Server{r.kube, r.hub} {
		for _, obj := range []map[string]any{ns, sa} {
			k := Kind{GroupVersionKind: fromAPIVersion("v1", obj["kind"].(string)), Resource: "namespaces"}
			if obj["kind"] == "ServiceAccount" {
				k.Resource, k.Namespaced = "serviceaccounts", true
			}
			path := k.collectionPath(r.opts.Namespace)
			body, _ := json.Marshal(obj)
			a := s.Do(ctx, Request{Method: http.MethodPost, Path: path, ContentType: "application/json", Body: body})
			if a.Err != nil || (a.Code != http.StatusCreated && a.Code != http.StatusConflict) {
				return fmt.Errorf("setting up %s: POST %s: %v", s.Name, path, a)
			}
		}
	}
	return nil
}

func (r *runner) objectPath(k Kind, name string) string {
	return k.collectionPath(r.opts.Namespace) + "/" + name
}

// base makes kind k's base object on both servers, by server-side apply
// as the base's field manager, for the cases to update, patch and apply
// to, and reads it back; the answers to both are compared as cases of
// their own.
func (r *runner) base(ctx context.Context, k Kind) {
	if createOnly(k) {
		return
	}
	body, _ := json.Marshal(BaseObject(k, r.opts.Namespace, k.objectName("base")))
	req := Request{
		Method: http.MethodPatch, Path: r.objectPath(k, k.objectName("base")), ContentType: "application/apply-patch+yaml",
		Query: url.Values{"fieldManager": {baseManager}, "force": {"true"}}, Body: body,
	}
	c := Case{Kind: k, Seed: r.opts.Seed, Index: -1, Op: OpForceApply, Mutation: "the base object"}
	if kube := r.compare(ctx, c, req); kube.Code >= 300 && r.opts.Logf != nil {
		// Its cases then test little but the refusal: basis.yaml needs
		// a valid object of the kind.
		r.opts.Logf("difftest: kube-apiserver refuses the base object of %s: %v", k.ID(), kube)
	}
	// Read back, the object as stored, which a server may default or
	// convert otherwise on read than it answered the write.
	c.Op, c.Mutation = "get", "a read of the base object"
	r.compare(ctx, c, Request{Method: http.MethodGet, Path: req.Path})
}

// runCases runs every kind's cases, opts.Parallel at a time, kinds
// interleaved so that all progress together.
func (r *runner) runCases(ctx context.Context, kinds []Kind) {
	type job struct {
		k     Kind
		index int
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range max(r.opts.Parallel, 1) {
		wg.Go(func() {
			for j := range jobs {
				r.runCase(ctx, j.k, j.index)
			}
		})
	}
	for i := 0; i < r.opts.Cases && ctx.Err() == nil; i++ {
		for _, k := range kinds {
			jobs <- job{k, i}
		}
		if (i+1)%max(r.opts.Cases/10, 1) == 0 && r.opts.Logf != nil {
			r.opts.Logf("difftest: %d of %d cases of each of %d kinds sent", i+1, r.opts.Cases, len(kinds))
		}
	}
	close(jobs)
	wg.Wait()
}

func (r *runner) runCase(ctx context.Context, k Kind, index int) {
	c, err := Generate(k, r.opts.Namespace, r.opts.Seed, index)
	if err != nil {
		r.report.add(k, []Difference{{Aspect: AspectCode, Class: "the generator failed: " + err.Error()}}, c.String())
		return
	}
	r.compare(ctx, c, r.request(c))
}

// request is the request case c sends: a dry run, but for the kinds that
// store nothing anyway.
func (r *runner) request(c Case) Request {
	q := url.Values{}
	if !createOnly(c.Kind) {
		q.Set("dryRun", "All")
	}
	if c.Op != OpCreate {
		q.Set("fieldManager", otherManager)
	}
	body, _ := json.Marshal(c.Object)
	req := Request{Method: http.MethodPatch, Path: r.objectPath(c.Kind, c.Kind.objectName("base")), Query: q, Body: body}
	switch c.Op {
	case OpCreate:
		req.Method, req.Path, req.ContentType = http.MethodPost, c.Kind.collectionPath(r.opts.Namespace), "application/json"
	case OpUpdate:
		req.Method, req.ContentType = http.MethodPut, "application/json"
	case OpJSONPatch:
		req.ContentType, req.Body = "application/json-patch+json", c.Patch
	case OpMergePatch:
		req.ContentType, req.Body = "application/merge-patch+json", c.Patch
	case OpStrategicPatch:
		req.ContentType, req.Body = "application/strategic-merge-patch+json", c.Patch
	case OpApply, OpForceApply:
		req.ContentType = "application/apply-patch+yaml"
		if c.Op == OpForceApply {
			q.Set("force", "true")
		}
	}
	return req
}

// compare sends req to both servers at once, records how the answers
// differ, and returns kube-apiserver's.
func (r *runner) compare(ctx context.Context, c Case, req Request) Answer {
	kube, hub := r.both(ctx, req)
	diffs := CompareAnswers(kube, hub)
	if c.Op != OpCreate {
		diffs = CompareAnswers(kube.withoutControllers(), hub.withoutControllers())
	}
	if r.opts.Only != "" && r.opts.Logf != nil {
		r.opts.Logf("%s\nrequest: %s\nkube-apiserver: %s\nhub: %s\ndifferences: %v", c, req, kube, hub, diffs)
	}
	r.report.add(c.Kind, diffs, example(c, req, kube, hub))
	r.report.answered(c.Kind, kube.Code)
	return kube
}

func (r *runner) both(ctx context.Context, req Request) (kube, hub Answer) {
	var wg sync.WaitGroup
	wg.Go(func() { kube = r.kube.Do(ctx, req) })
	hub = r.hub.Do(ctx, req)
	wg.Wait()
	return kube, hub
}

// cleanUp deletes the base object from both servers.
func (r *runner) cleanUp(ctx context.Context, k Kind) {
	if createOnly(k) || !k.Can("delete") {
		return
	}
	for _, s := range []*Server{r.kube, r.hub} {
		s.Do(ctx, Request{Method: http.MethodDelete, Path: r.objectPath(k, k.objectName("base")), Query: url.Values{"propagationPolicy": {"Background"}}})
	}
}

// maxExample bounds each answer in an example.
const maxExample = 4000

func example(c Case, req Request, kube, hub Answer) string {
	return fmt.Sprintf("%s\nrequest: %s\nkube-apiserver answered: %s\nhub answered: %s",
		c, truncate(req.String()), truncate(kube.String()), truncate(hub.String()))
}

func truncate(s string) string {
	if len(s) > maxExample {
		return s[:maxExample] + fmt.Sprintf("… (%d bytes more)", len(s)-maxExample)
	}
	return s
}
